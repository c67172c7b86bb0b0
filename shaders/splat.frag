#version 410 core
// The CUDA splatter's image, premultiplied: added onto the scene as it is.
// The image covers the scene's view, whose corner is u_origin in the window.
uniform sampler2D u_image;
uniform ivec2 u_origin;
out vec4 frag_colour;

void main() { frag_colour = texelFetch(u_image, ivec2(gl_FragCoord.xy) - u_origin, 0); }
