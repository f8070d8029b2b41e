// RFC 9111 conditional requests for robots.txt: the validators a response carries, the headers that send them back, whether a 304 selects the stored copy.

/**
 * The header fields of a 2xx response that a later revalidation needs (RFC 9111 §4.3):
 * the validators to send back and the freshness fields a 304 may leave out. Only the
 * fields the response carried are present.
 */
export interface RobotsCacheHeaders {
  /** `ETag` (RFC 9110 §8.8.3), sent back as `If-None-Match`. */
  readonly etag?: string;
  /** `Last-Modified` (RFC 9110 §8.8.2), sent back as `If-Modified-Since`. */
  readonly lastModified?: string;
  /** `Cache-Control`, still in force after a 304 that sends none (RFC 9111 §4.3.4). */
  readonly cacheControl?: string;
  /** `Expires`, likewise. */
  readonly expires?: string;
}

export function cacheHeadersOf(headers: Headers): RobotsCacheHeaders {
  const etag = headers.get('etag');
  const lastModified = headers.get('last-modified');
  const cacheControl = headers.get('cache-control');
  const expires = headers.get('expires');
  return {
    ...(etag === null ? {} : { etag }),
    ...(lastModified === null ? {} : { lastModified }),
    ...(cacheControl === null ? {} : { cacheControl }),
    ...(expires === null ? {} : { expires }),
  };
}

/** RFC 9111 §4.3.1: both validators when both are known (the server prefers If-None-Match). */
export function conditionalHeaders(validators: RobotsCacheHeaders): Record<string, string> {
  return {
    ...(validators.etag === undefined ? {} : { 'if-none-match': validators.etag }),
    ...(validators.lastModified === undefined ? {} : { 'if-modified-since': validators.lastModified }),
  };
}

/**
 * RFC 9111 §4.3.4: whether a 304 selects the stored response: its entity tag, when it sends
 * one, must match the stored one (weak comparison, RFC 9110 §8.8.3.2); else its
 * Last-Modified, when sent, must equal the stored one; a 304 with no validator selects the
 * only stored response.
 */
export function selectsStored(headers: Headers, stored: RobotsCacheHeaders): boolean {
  const etag = headers.get('etag');
  if (etag !== null) return stored.etag !== undefined && opaqueTag(etag) === opaqueTag(stored.etag);
  const lastModified = headers.get('last-modified');
  if (lastModified !== null) return stored.lastModified === lastModified;
  return true;
}

function opaqueTag(etag: string): string {
  const trimmed = etag.trim();
  return trimmed.startsWith('W/') ? trimmed.slice(2) : trimmed;
}

/** RFC 9111 §4.3.4: the 304's fields replace the stored ones of the same name. */
export function updateCacheHeaders(stored: RobotsCacheHeaders, headers: Headers): RobotsCacheHeaders {
  return { ...stored, ...cacheHeadersOf(headers) };
}

/** The 304's own fields (Date, Age, …) with the updated Cache-Control/Expires, for cacheHintsOf. */
export function freshnessHeaders(updated: RobotsCacheHeaders, headers: Headers): Headers {
  const merged = new Headers(headers);
  if (updated.cacheControl !== undefined) merged.set('cache-control', updated.cacheControl);
  if (updated.expires !== undefined) merged.set('expires', updated.expires);
  return merged;
}
