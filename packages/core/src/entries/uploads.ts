/**
 * `@assetloom/core/uploads` — image inputs (decision 0034): the upload service (store an image,
 * check a submission's inputs, record and release their uses), the image decoder port and its
 * PNG implementation, the upload records and repository port, the image-input defaults and the
 * upload error messages. Reading the multipart body is transport work, on `@assetloom/core/http`.
 *
 * @packageDocumentation
 */
export { UPLOAD_MESSAGES, uploadErrors } from '../uploads/errors.js';
export { IMAGE_FRAMES, IMAGE_INPUT_DEFAULTS, type InputHashes } from '../uploads/params.js';
export { createPngDecoder } from '../uploads/png-decoder.js';
export type {
  UploadRecord,
  UploadRepository,
  UploadSlotRecord,
  UploadUseRecord,
} from '../uploads/records.js';
export {
  type CheckedInputs,
  createUploadService,
  type DecodedImage,
  EXPANSION_FLOOR_BYTES,
  type ImageDecoder,
  type PinningTask,
  type TaskPictures,
  UPLOAD_DEFAULTS,
  type UploadBody,
  type UploadLimits,
  type UploadObjects,
  type UploadService,
  type UploadServiceDeps,
  type UploadView,
} from '../uploads/service.js';
