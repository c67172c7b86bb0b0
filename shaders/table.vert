#version 410 core
// The table top: a square at y = u_height generated from gl_VertexID (no buffers);
// the fragment shader cuts it to a disc with a grid.
uniform mat4 u_view_proj;
uniform float u_radius;
uniform float u_height;  // y of the disc
out vec2 v_local;

void main() {
  vec2 corners[4] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(-1, 1), vec2(1, 1));
  vec2 c = corners[gl_VertexID] * u_radius * 1.02;
  v_local = c;
  gl_Position = u_view_proj * vec4(c.x, u_height, c.y, 1.0);
}
