import { AssetloomError, type ErrorLimit } from '../errors.js';

/** The messages of the upload operations (openapi/asset-api.yaml, decision 0034). */
export const UPLOAD_MESSAGES = {
  imageUnreadable: '图片无法读取',
  imageTooLarge: '图片过大',
  imageDimensions: '图片尺寸过大',
  uploadQuota: '上传空间已达上限',
  uploadForbidden: '无权访问该上传',
  uploadNotFound: '上传不存在',
  uploadInUse: '上传正被任务使用',
  imageTooManyScans: 'JPEG 扫描次数过多，请另存为基线 JPEG 或 PNG',
  imageExpands: '图片存储后过大，请改传 PNG 或更小的图片',
  uploadsInFlight: '上传进行中，请稍后再试',
} as const;

/** Factories; `details` (why, in words) goes to the log, never to the client. */
export const uploadErrors = {
  unreadable: (details: unknown) => new AssetloomError(400, UPLOAD_MESSAGES.imageUnreadable, { details }),
  tooLarge: (details: { limit: number; bytes?: number }) =>
    new AssetloomError(413, UPLOAD_MESSAGES.imageTooLarge, {
      details,
      limit: limitOf(details.limit, 'bytes', details.bytes),
    }),
  /** The side limit when a side is over it, else the pixel count's. */
  dimensions: (details: { width: number; height: number; maxSide: number; maxPixels: number }) => {
    const side = Math.max(details.width, details.height);
    return new AssetloomError(413, UPLOAD_MESSAGES.imageDimensions, {
      details,
      limit:
        side > details.maxSide
          ? limitOf(details.maxSide, 'side', side)
          : limitOf(details.maxPixels, 'pixels', details.width * details.height),
    });
  },
  quota: (details: { used: number; limit: number; adding?: number }) =>
    new AssetloomError(413, UPLOAD_MESSAGES.uploadQuota, {
      details,
      limit: limitOf(details.limit, 'bytes', details.used + (details.adding ?? 0)),
    }),
  forbidden: () => new AssetloomError(403, UPLOAD_MESSAGES.uploadForbidden),
  notFound: () => new AssetloomError(404, UPLOAD_MESSAGES.uploadNotFound),
  inUse: () => new AssetloomError(409, UPLOAD_MESSAGES.uploadInUse),
  /** 413: a JPEG with more scans than UPLOAD_JPEG_MAX_SCANS, refused before decoding (decision 0043). */
  tooManyScans: (details: { limit: number; detail?: unknown; scans?: number }) =>
    new AssetloomError(413, UPLOAD_MESSAGES.imageTooManyScans, {
      details,
      limit: limitOf(details.limit, 'scans', details.scans),
    }),
  /** 413: the stored PNG would be more than UPLOAD_MAX_EXPANSION times the upload (decision 0043). */
  expands: (details: { bytes: number; stored: number; limit: number }) =>
    new AssetloomError(413, UPLOAD_MESSAGES.imageExpands, {
      details,
      limit: limitOf(
        details.limit,
        'ratio',
        details.bytes > 0 ? Math.round((details.stored / details.bytes) * 100) / 100 : undefined,
      ),
    }),
  /** 429: the user's upload slots (UPLOAD_USER_IN_FLIGHT) are all held by uploads in flight. */
  inFlight: (retryAfter: number, details?: unknown) =>
    new AssetloomError(429, UPLOAD_MESSAGES.uploadsInFlight, { retryAfter, details }),
} as const;

function limitOf(max: number, unit: ErrorLimit['unit'], actual?: number): ErrorLimit {
  return actual === undefined ? { max, unit } : { max, unit, actual };
}
