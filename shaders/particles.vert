#version 410 core
// Particles as point sprites. Position in xyz; w is either a scalar the palette
// turns into colour (age, speed, inside/outside) or ignored when colours come
// from their own attribute (the fountain's seed variant stores them).
layout(location = 0) in vec4 a_position;
layout(location = 1) in vec4 a_colour;
layout(location = 2) in uint a_id;  // colour by launch: the id the kernel wrote

uniform mat4 u_view_proj;
uniform float u_point_size;    // pixels at distance 1
uniform float u_scalar_scale;  // maps w to [0, 1] for the palette
uniform vec3 u_stops[3];      // the palette's colours at t = 0, 0.5, 1 (kernels/common/palette.h)
uniform int u_two_colours;    // 1: stops[0] up to t = 0.5, then stops[2]
uniform int u_colour_from_attribute;
uniform float u_hide_below;    // particles parked below this y are not drawn
uniform int u_colour_by;       // 0 palette; 1 block, 2 warp, 3 lane, 4 SM (insight::ColourBy)

out vec4 v_colour;

// kernels/common/palette.h's colour(): the table lives there, the stops come as uniforms.
vec3 palette(float t) {
  t = clamp(t, 0.0, 1.0);
  if (u_two_colours == 1) return t > 0.5 ? u_stops[2] : u_stops[0];
  return t < 0.5 ? u_stops[0] + (u_stops[1] - u_stops[0]) * (t * 2.0)
                 : u_stops[1] + (u_stops[2] - u_stops[1]) * (t * 2.0 - 1.0);
}

vec3 hsv(float h, float s, float v) {
  vec3 k = clamp(abs(mod(h * 6.0 + vec3(0.0, 4.0, 2.0), 6.0) - 3.0) - 1.0, 0.0, 1.0);
  return v * mix(vec3(1.0), k, s);
}

// Categorical colours: neighbouring ids differ in hue by the golden ratio and
// in brightness by thirds; lanes run once round the hue circle, so a warp
// reads as a rainbow.
vec3 launch_colour(uint id) {
  if (u_colour_by == 3) return hsv(float(id % 32u) / 32.0, 0.85, 1.0);
  float h = fract(float(id) * 0.6180339887);
  float v = 1.0 - 0.22 * float(id % 3u);
  return hsv(h, 0.75, v);
}

void main() {
  if (a_position.y < u_hide_below) {
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);  // outside the clip volume
    gl_PointSize = 0.0;
    v_colour = vec4(0.0);
    return;
  }
  vec4 clip = u_view_proj * vec4(a_position.xyz, 1.0);
  gl_Position = clip;
  gl_PointSize = clamp(u_point_size / max(clip.w, 0.05), 1.0, 64.0);
  vec3 rgb = u_colour_from_attribute == 1 ? a_colour.rgb : palette(a_position.w * u_scalar_scale);
  if (u_colour_by > 0) rgb = launch_colour(a_id);
  v_colour = vec4(rgb, 1.0);
}
