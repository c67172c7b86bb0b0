#version 410 core
in vec2 v_local;
uniform float u_radius;
out vec4 frag_colour;

void main() {
  float r = length(v_local);
  if (r > u_radius) discard;
  vec2 cell = abs(fract(v_local * 2.0) - 0.5);   // grid every half unit
  float line = 1.0 - smoothstep(0.0, 0.04, min(cell.x, cell.y));
  float rim = smoothstep(u_radius - 0.08, u_radius, r);
  vec3 base = vec3(0.13, 0.16, 0.22);
  vec3 col = base + line * vec3(0.07, 0.09, 0.12) + rim * vec3(0.25, 0.3, 0.4);
  frag_colour = vec4(col, 1.0);
}
