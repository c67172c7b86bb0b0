#version 410 core
// Overlay lines (the pi scene's quarter circle): positions from a small buffer.
layout(location = 0) in vec3 a_position;
uniform mat4 u_view_proj;

void main() { gl_Position = u_view_proj * vec4(a_position, 1.0); }
