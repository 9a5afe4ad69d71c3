/**
 * How the verifier reads a site (./site.ts): the {@link SiteReader} interface that a folder
 * (./folder-reader.ts) and the network (./http-reader.ts) implement, and what a read gives.
 */

/** A fetched document. */
export interface FetchedDocument {
  bytes: Uint8Array;
  /** The Content-Type, when the transport has one. */
  contentType?: string;
  /** The HTTP `Link` header, when the transport has one (RFC 8288). */
  link?: string;
}

/**
 * How the verifier reads a site: a folder on disk or the network. `read` takes an absolute URL and
 * returns the bytes, `undefined` when the URL is outside what this reader may read (another origin for
 * a folder), and throws an Error with a message for a failed read.
 */
export interface SiteReader {
  read(url: string): Promise<FetchedDocument | undefined>;
}
