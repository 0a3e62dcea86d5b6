import { decodePng, encodePng } from '@assetloom/pipeline';
import type { DecodedImage, ImageDecoder } from './service.js';

/**
 * A decoder of PNG uploads in pure TypeScript (the pipeline's PNG codec: every colour type and bit
 * depth, interlaced), for the mock and for browsers; other formats are refused (→ 400). The PNG it
 * stores is written anew from the pixels, so nothing of the original's chunks survives. The server
 * decodes every format with sharp instead (decision 0034).
 */
export function createPngDecoder(): ImageDecoder {
  return {
    async decode(bytes, header): Promise<DecodedImage> {
      if (header.format !== 'png') throw new Error(`this decoder reads PNG only, not ${header.format}`);
      const decoded = decodePng(bytes);
      if (!decoded.ok) throw new Error(decoded.error);
      const { width, height, data } = decoded.image;
      return { width, height, rgba: data, png: encodePng(data, width, height) };
    },
  };
}
