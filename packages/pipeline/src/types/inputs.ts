import type { RgbaImage } from './image.js';

/**
 * The pictures a request starts from (decision 0034), decoded to 8-bit RGBA by whoever holds them
 * (the server's worker reads the uploads from object storage): `params.image`, `mask`,
 * `references` and `paletteFrom` of the task, in that order of meaning.
 */
export interface ImageInputs {
  /** Start from this picture; strength 0 keeps it (pixelate), 1 ignores it. */
  image?: { picture: RgbaImage; strength: number };
  /** Edit only where this picture is white (light and opaque); the size of `image`. */
  mask?: RgbaImage;
  /** 1-4 pictures whose style or character to follow. */
  references?: RgbaImage[];
  /** The palette is this picture's colours, at most `maxColors`. */
  paletteFrom?: { picture: RgbaImage; maxColors: number };
  /** A level's tileset (`params.level.tilesetTaskId`): the task's sheet, kind, tile size and terrains. */
  tileset?: LevelTilesetInput & { picture: RgbaImage };
}

/** What a level knows of the tileset task it is tiled with. */
export interface LevelTilesetInput {
  taskId: string;
  kind: 'wang16' | 'blob47';
  tileSize: number;
  /** The set's terrains, first then second. */
  terrains: string[];
}

/** The image inputs a provider is handed (the palette is already in the style; a level's tileset is the pipeline's). */
export type ProviderImageInputs = Omit<ImageInputs, 'paletteFrom' | 'tileset'>;

/**
 * An uploaded picture a task names, not yet read (issue #37): the pipeline reads and decodes each
 * distinct one once, where it runs (a pipeline thread), through a {@link PictureSource}.
 */
export interface PictureRef {
  /** The upload's id: two params naming one upload read it once. */
  uploadId: string;
  /** Where its PNG is stored. */
  key: string;
  /** Its size, as stored (what the budgets counted). */
  width: number;
  height: number;
}

/** The image inputs of a task as references to stored pictures. */
export interface ImageInputRefs {
  image?: { ref: PictureRef; strength: number };
  mask?: PictureRef;
  references?: PictureRef[];
  paletteFrom?: { ref: PictureRef; maxColors: number };
  /** A level's tileset task: where its sheet is stored, and what it is. */
  tileset?: LevelTilesetInput & { ref: PictureRef };
}

/** Reads a stored picture's PNG bytes (the server's object storage, the mock's memory). */
export interface PictureSource {
  read(ref: PictureRef, signal?: AbortSignal): Promise<Uint8Array>;
}
