import { constants, createBrotliCompress, createGzip, type BrotliCompress, type Gzip } from 'node:zlib';

/**
 * Compression of streamed answers, done in the function: API Gateway does not compress a
 * streamed response. Brotli first when the client weighs both the same: at the quality used
 * here it is as fast as gzip's default and a little smaller.
 */
export const CONTENT_ENCODINGS = ['br', 'gzip'] as const;
export type ContentEncoding = (typeof CONTENT_ENCODINGS)[number];

/** Brotli's default quality (11) is meant for files compressed once; 4 keeps pace with the store's pages. */
const BROTLI_QUALITY = 4;

/**
 * The coding of the answer for an Accept-Encoding header (RFC 9110 12.5.3): the supported coding
 * with the highest q-value above 0, `*` standing for any coding the header does not name.
 * Undefined means identity: without the header, or when nothing supported is acceptable.
 */
export function negotiateEncoding(acceptEncoding: string | undefined): ContentEncoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [coding = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (coding === '') continue;
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    const weight = quality === undefined ? 1 : Number(quality.slice(2));
    weights.set(coding, Number.isFinite(weight) ? weight : 0);
  }
  let chosen: ContentEncoding | undefined;
  let chosenWeight = 0;
  for (const coding of CONTENT_ENCODINGS) {
    const weight = weights.get(coding) ?? weights.get('*') ?? 0;
    if (weight > chosenWeight) [chosen, chosenWeight] = [coding, weight];
  }
  return chosen;
}

/**
 * A compressor that flushes after every chunk written to it, so each chunk reaches the client
 * as soon as it is written rather than when the compressor's window fills.
 */
export function createEncoder(encoding: ContentEncoding): Gzip | BrotliCompress {
  return encoding === 'gzip'
    ? createGzip({ flush: constants.Z_SYNC_FLUSH })
    : createBrotliCompress({ flush: constants.BROTLI_OPERATION_FLUSH, params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } });
}
