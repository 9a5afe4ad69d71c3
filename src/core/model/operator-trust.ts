/**
 * The shape of the operator's decisions on the trust boundary (trusted input: the environment, the command
 * line), which the content model carries so that every later step reads them from one place. Read from the
 * environment by trust/operator-trust.ts; keys named by RFC 7638 thumbprints.
 */

/** What the operator decided, read from the environment by `operatorTrust` (trust/operator-trust.ts). */
export interface OperatorTrust {
  /** RFC 7638 SHA-256 thumbprints (base64url) the operator confirms. */
  trustedKeys: ReadonlySet<string>;
  /** Absolute folders outside the project that reads may reach. */
  allowOutside: readonly string[];
  /**
   * Absolute paths of key files the operator named (`ARDSITE_SIGNING_KEY_FILE`): secrets that are never
   * published, wherever they lie.
   */
  keyFiles: readonly string[];
}
