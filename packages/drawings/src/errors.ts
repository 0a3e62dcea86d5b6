export type DrawingsErrorCode =
  | 'not_built'
  /** A page could not fetch a file of the package (its message says what to serve). */
  | 'not_served'
  | 'load_failed'
  | 'unknown_drawing'
  | 'render_failed';

/** The one error class of @assetloom/drawings; its message says what to do next. */
export class DrawingsError extends Error {
  override readonly name = 'DrawingsError';
  constructor(
    readonly code: DrawingsErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message.startsWith('[assetloom/drawings]') ? message : `[assetloom/drawings] ${message}`, options);
  }
}
