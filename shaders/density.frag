#version 410 core
// Tone mapping of the particles' float target (render/density_target.h): rgb
// holds sum(colour * alpha), a holds sum(alpha). The hue is their ratio, the
// mean colour of the particles on the pixel, so age or speed stays readable
// however many overlap; brightness 1 - exp(-exposure * alpha sum) rises with
// density and never clips to white (splat_math.h's resolve does the same).
uniform sampler2D u_sum;
uniform ivec2 u_origin;  // the view's corner in the window
uniform float u_exposure;
out vec4 frag_colour;

void main() {
  vec4 s = texelFetch(u_sum, ivec2(gl_FragCoord.xy) - u_origin, 0);
  if (s.a <= 0.0) discard;
  vec3 hue = s.rgb / s.a;
  float bright = 1.0 - exp(-u_exposure * s.a);
  frag_colour = vec4(hue * bright, bright);  // premultiplied, drawn "over" the table
}
