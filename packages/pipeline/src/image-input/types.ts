import type { RgbaImage } from '../types.js';

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
}

/** The image inputs a provider is handed (the palette is already in the style). */
export type ProviderImageInputs = Omit<ImageInputs, 'paletteFrom'>;
