/**
 * @assetloom/drawings: licensed open drawings for Assetloom's built-in generator.
 *
 * - `findDrawings({ head, modifiers })`: the drawings that show a noun (English lemma or Chinese
 *   word), best first, or none: the caller refuses rather than drawing something else.
 * - `renderDrawing(drawing, { width, height, viewBox, transform })`: a straight-alpha RGBA render
 *   through resvg's WebAssembly build (the same pixels in Node and browsers).
 * - `provenanceOf(drawing)`: the set, licence, author and the attribution its licence asks for.
 *
 * The catalog (words and render facts of ~5,800 drawings) is indexed on first use and each drawing
 * decoded when a lookup first reaches it; each set's SVG bodies are read from `dist/sets/<set>.bin`
 * when a drawing of that set is first drawn.
 */
export {
  allDrawings,
  canDraw,
  type Drawing,
  type DrawingMatch,
  type DrawingQuery,
  drawableHeads,
  drawableLike,
  drawingById,
  findDrawings,
  type SetName,
  sharedCatalog,
} from './catalog.js';
export { DrawingsError, type DrawingsErrorCode } from './errors.js';
export { type BitmapFont, FONT_LICENCES, type FontName, type Glyph, loadFont } from './fonts.js';
export { SETS } from './generated/catalog.js';
export { type DrawingProvenance, provenanceOf } from './licence.js';
export { configureDrawings, type DrawingsConfig, drawingBody, sharedDrawingsFile } from './load.js';
export { type Raster, type RenderOptions, renderDrawing, renderSvg, resvgModule } from './raster.js';
