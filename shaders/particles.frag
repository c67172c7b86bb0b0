#version 410 core
// Round, softly blended sprites: alpha falls off towards the rim.
in vec4 v_colour;
uniform float u_opacity;
out vec4 frag_colour;

void main() {
  vec2 d = gl_PointCoord * 2.0 - 1.0;
  float r2 = dot(d, d);
  if (r2 > 1.0) discard;
  float alpha = u_opacity * (1.0 - r2) * (1.0 - r2);
  frag_colour = vec4(v_colour.rgb, alpha);
}
