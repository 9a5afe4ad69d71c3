/**
 * The fixed names of a site: the media types of its entries and documents, and the paths of its
 * well-known documents. A module of its own, with no imports, so that the verifier (and its bundled
 * helper threads) can name them without loading the site builder. Every other module takes them from here.
 */

/** Media type of an A2A AgentCard entry (ARD draft §3.2.1 example). */
export const A2A_CARD_TYPE = 'application/a2a-agent-card+json';
/** Media type of an MCP server card entry (ARD draft §3.2.1): the MCP registry's `server.json` shape. */
export const MCP_SERVER_CARD_TYPE = 'application/mcp-server-card+json';
/** Media type of the ARD manifest (ARD draft §8.1.1). */
export const ARD_MEDIA_TYPE = 'application/ard+json';
/** Media type of a registry entry: its `url` is the base URI of a lookup API (ARD draft §3.6, §4.2, §8.1.2). */
export const REGISTRY_TYPE = 'application/ai-registry+json';
/** Site path of the manifest (ARD initial contact: the well-known URI). */
export const MANIFEST_PATH = '/.well-known/ard.json';
/** Site path of the DID document of `did:web:<domain>` (did:web method spec). */
export const DID_PATH = '/.well-known/did.json';
/** Site path of the JWK Set (`jku` of the card signatures). */
export const JWKS_PATH = '/.well-known/jwks.json';
/** A2A well-known location of the primary agent's card (A2A v0.3+). */
export const WELL_KNOWN_CARD_PATH = '/.well-known/agent-card.json';
/** Pre-0.3 well-known card location, written when `hosting.legacyAgentJson` is on. */
export const LEGACY_WELL_KNOWN_CARD_PATH = '/.well-known/agent.json';
/**
 * Site path of the ARD v0.9 / ai-catalog compatibility copy of the manifest (ard-spec v0.9 §4.1: the
 * well-known URI of `ai-catalog.json`; DESIGN.md §9).
 */
export const AI_CATALOG_PATH = '/.well-known/ai-catalog.json';
