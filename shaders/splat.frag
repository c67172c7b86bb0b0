#version 410 core
// The CUDA splatter's image, premultiplied: added onto the scene as it is.
uniform sampler2D u_image;
out vec4 frag_colour;

void main() { frag_colour = texelFetch(u_image, ivec2(gl_FragCoord.xy), 0); }
