/**
 * `@assetloom/pipeline/inputs`: pictures in (decision 0034, issue #37) — the stored pictures a
 * request names (`PictureRef`, `ImageInputRefs`) and how a run reads them (`PictureSource`), and
 * `loadImageInputs`: each distinct picture read and decoded once at its working size
 * (`INPUT_WORKING_SIDE`); `submissionRefusal`: what a server refuses at submission because its provider cannot honour it.
 *
 * @packageDocumentation
 */
export { INPUT_WORKING_SIDE, loadImageInputs } from '../image-input/load.js';
export { type InputRefusal, type SubmittedInputs, submissionRefusal } from '../image-input/run.js';
export type { ImageInputRefs, LevelTilesetInput, PictureRef, PictureSource } from '../types/index.js';
