// Hexfront's stand-in for bevy_egui's shader: the same bindings, vertex layout and result, with the
// sRGB curves as short polynomials instead of pow() (within 0.06/255 of the exact curves, so the
// same 8-bit colour), which a software rasterizer runs several times faster per pixel.
// The inputs and outputs are bevy_egui 0.42's pipeline's (`render/mod.rs`, `EguiPipeline`).

struct Transform {
    scale: vec2<f32>,
    translation: vec2<f32>,
}

struct Vertex {
    @location(0) position: vec2<f32>,
    @location(1) uv: vec2<f32>,
    // sRGB, premultiplied, as egui gives it.
    @location(2) color: vec4<f32>,
}

struct Varyings {
    @builtin(position) clip: vec4<f32>,
    @location(0) color: vec4<f32>,
    @location(1) uv: vec2<f32>,
}

@group(0) @binding(0) var<uniform> transform: Transform;

#ifdef BINDLESS
@group(1) @binding(0) var textures: binding_array<texture_2d<f32>>;
@group(1) @binding(1) var samplers: binding_array<sampler>;
struct TextureSlot {
    offset: u32,
};
var<immediate> slot: TextureSlot;
#else
@group(1) @binding(0) var texture: texture_2d<f32>;
@group(1) @binding(1) var texture_sampler: sampler;
#endif

// sRGB-encoded to linear above the straight toe: a quartic, highest power first (a test in
// egui_shader.rs checks every 8-bit value against the exact curve).
const LINEAR_4: f32 = -0.11680520465744257;
const LINEAR_3: f32 = 0.5265017566988565;
const LINEAR_2: f32 = 0.5603963612995866;
const LINEAR_1: f32 = 0.028396667823547876;
const LINEAR_0: f32 = 0.0010467480146039005;
// Linear to sRGB-encoded above the straight toe: a cubic in the fourth root.
const SRGB_3: f32 = -0.13682768108936644;
const SRGB_2: f32 = 0.9525705330791956;
const SRGB_1: f32 = 0.2558012360116971;
const SRGB_0: f32 = -0.0717615019221371;

fn to_linear(c: vec3<f32>) -> vec3<f32> {
    let curve = (((LINEAR_4 * c + LINEAR_3) * c + LINEAR_2) * c + LINEAR_1) * c + LINEAR_0;
    return select(max(curve, vec3<f32>(0.0)), c / 12.92, c < vec3<f32>(0.04045));
}

fn to_srgb(c: vec3<f32>) -> vec3<f32> {
    let r = sqrt(sqrt(max(c, vec3<f32>(0.0))));
    let curve = ((SRGB_3 * r + SRGB_2) * r + SRGB_1) * r + SRGB_0;
    return select(curve, c * 12.92, c < vec3<f32>(0.0031308));
}

@vertex
fn vs_main(v: Vertex) -> Varyings {
    let at = v.position * transform.scale + transform.translation;
    // Colours are interpolated as egui gives them, sRGB-encoded, as egui's own renderers do.
    return Varyings(vec4<f32>(at, 0.0, 1.0), v.color, v.uv);
}

@fragment
fn fs_main(f: Varyings) -> @location(0) vec4<f32> {
#ifdef BINDLESS
    let texel = textureSample(textures[slot.offset], samplers[slot.offset], f.uv);
#else
    let texel = textureSample(texture, texture_sampler, f.uv);
#endif
    // egui multiplies in sRGB-encoded space (text looks right that way); the target wants linear.
    let encoded = vec4<f32>(to_srgb(texel.rgb), texel.a) * f.color;
    return vec4<f32>(to_linear(encoded.rgb), encoded.a);
}
