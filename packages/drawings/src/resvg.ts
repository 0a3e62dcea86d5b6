// resvg's JavaScript: the wasm-bindgen glue of @resvg/resvg-wasm 2.6.2 (MPL-2.0, licenses/resvg-wasm.txt),
// built into this package's dist/resvg.js beside the dist/resvg.wasm it instantiates, so an install
// holds one copy of the renderer (the package itself is a devDependency).
export { initWasm, Resvg } from '@resvg/resvg-wasm';
