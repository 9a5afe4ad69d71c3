/**
 * The one error vocabulary of ardsite: every check, the build, the signer and the verifier report
 * problems with a stable machine-readable `code` from {@link ERROR_CODES}. Callers and tests branch on
 * codes; messages stay free to improve (the model is jose's `src/util/errors.ts`).
 *
 * Two shapes carry a code:
 * - {@link Diagnostic}: a finding about user input (content files, a fetched site). Many are collected
 *   and reported together, so that one run shows every fault.
 * - {@link ArdsiteError}: a thrown error for a failure that stops the current operation (a bad key, a
 *   build whose self-check failed). It may carry diagnostics.
 */

/** Every code ardsite reports, with the one-line meaning shown in docs and `--json` output. */
export const ERROR_CODES = {
  // --- reading files -------------------------------------------------------------------------------
  /** A file could not be read from disk. */
  FILE_UNREADABLE: 'A file could not be read.',
  /** A YAML document (file or front matter) does not parse. */
  YAML_INVALID: 'Invalid YAML.',
  /**
   * A YAML document's aliases (`*name`) would expand it far past its own size, or an alias refers to a
   * value that contains it: refused before anything expands it (content, stored specs).
   */
  YAML_ALIASES_TOO_LARGE: 'YAML aliases expand the document too far.',
  /** A JSON document does not parse. */
  JSON_INVALID: 'Invalid JSON.',
  /** An agent Markdown file has no `---` YAML front matter. */
  FRONT_MATTER_MISSING: 'The Markdown file has no YAML front matter.',
  /** A required file (for example `content/publisher.yaml`) does not exist. */
  FILE_MISSING: 'A required file is missing.',
  /**
   * (warning) `hosting.legacyAgentJson: true`, but the primary agent has no '0.3' interface: the card at
   * `/.well-known/agent.json` is a v1.0 card, which clients before A2A v0.3 cannot read.
   */
  HOSTING_LEGACY_CARD: 'The pre-0.3 card path would serve a card pre-0.3 clients cannot read.',
  /** `npm run import` was given something that is not an A2A AgentCard it can turn into an agent file. */
  IMPORT_NOT_A_CARD: 'Not an A2A AgentCard that can be imported.',
  /** `npm run import` would write an agent file that exists: the project has an agent of that slug. */
  IMPORT_SLUG_TAKEN: 'The project already has an agent of that slug.',
  /** `npm run import` was given a card whose addresses are templates still to fill in (`https://<HOST>/…`). */
  IMPORT_TEMPLATE_URL: 'The card is a template: an address holds a placeholder.',
  /** `npm run import` read a relative interface address from a file, with no `--base-url` to resolve it. */
  IMPORT_RELATIVE_URL: 'A relative interface address has nothing to resolve against.',
  /**
   * A per-language text written in a one-line YAML map (`{ en: a, b, pt-BR: c }`) was cut at a comma: the
   * rest was read as another key. Quote the text.
   */
  TEXT_UNQUOTED_COMMA: 'A text in a one-line YAML map was cut at a comma; quote it.',
  /** (warning) A content file sits in a subfolder, where it is not read. */
  CONTENT_IGNORED: 'A content file in a subfolder is not read.',
  /**
   * A file the build would read (content, ramFile, attestation file, public/, signing.keyFile) resolves,
   * after symbolic links, outside the project folder and outside publisher.yaml `allowOutside`.
   */
  FILE_OUTSIDE_PROJECT: 'A file resolves outside the project folder.',
  /**
   * A write would leave its folder (a `..` segment, an absolute path) or go through a symbolic link, or an
   * id that names a file is not a slug (src/core/project/contained-write.ts, src/core/project/path-slug.ts).
   */
  FILE_WRITE_REFUSED: 'A file would be written outside its folder or through a symbolic link.',
  /** A resource's `specFile` is not under `content/specs/`, the only folder stored specs are read from. */
  FILE_NOT_IN_SPECS_FOLDER: 'A stored spec lies outside content/specs/.',
  /**
   * A symbolic link in `public/` reaches a secret of the project (`.git`, `.env`, `.ardsite`, `.npmrc`, the
   * signing key file), or a folder holding one: it would be published.
   */
  PUBLIC_LINK_TO_SECRET: 'A link in public/ would publish a secret of the project.',
  /**
   * publisher.yaml lists a folder under `allowOutside` that the operator has not listed in
   * `ARDSITE_ALLOW_OUTSIDE` (content cannot widen what the build reads).
   */
  ALLOW_OUTSIDE_NOT_CONFIRMED: 'A folder outside the project is not confirmed by the operator.',
  /** A content file is larger than publisher.yaml `limits.fileBytes` (default 8 MiB); it is not read. */
  FILE_TOO_LARGE: 'A content file is too large.',
  /** A document nests lists and mappings deeper than `limits.depth` (default 64). */
  CONTENT_TOO_DEEP: 'A document is nested too deeply.',
  /** A single text (string value, key, Markdown body) is longer than `limits.textBytes` (default 1 MiB). */
  TEXT_TOO_LONG: 'A text is too long.',

  /**
   * A name shown to people (an agent's `name`, an entry's `displayName`) holds a character that shows
   * nothing or reorders the text (zero-width, bidi override): UTS #39, Unicode TR9.
   */
  NAME_HIDDEN_CHARACTER: 'A shown name holds an invisible or text-reordering character.',
  /** (warning) Two shown names have the same UTS #39 confusable skeleton: one can pass for the other. */
  NAME_LOOKALIKE: 'Two shown names look alike.',
  /** (warning) A Latin name holds a letter of another script that looks like a Latin one (UTS #39 §5.1). */
  NAME_MIXED_SCRIPT: 'A shown name mixes scripts with a look-alike letter.',

  /**
   * A federation peer in publisher.yaml (`registry.federation.peers[].url`) is at `localhost` or a
   * loopback, private or link-local address: content may not point the registry at this machine or a
   * private network (ARD draft §6.5).
   */
  REGISTRY_PEER_PRIVATE: 'A federation peer is at a private, loopback or link-local address.',

  // --- shape of the authored data ------------------------------------------------------------------
  /** A field has the wrong JSON type. */
  SCHEMA_INVALID_TYPE: 'A field has the wrong type.',
  /** A field is not one of the allowed enum values. */
  SCHEMA_INVALID_ENUM: 'A value is not one of the allowed values.',
  /** An object has a key that the format does not define. */
  SCHEMA_UNKNOWN_KEY: 'Unknown key.',
  /**
   * A field is written the way another A2A document writes it (the v0.3 security forms `type: oauth2`
   * and `security:`, v0.3 interface fields, snake_case names): the message says what to write instead.
   */
  A2A_SPELLING: 'A field is written in another A2A form; the message says what to write instead.',
  /** A required field is absent. */
  SCHEMA_REQUIRED: 'A required field is missing.',
  /** A field that must carry a value is empty (`""`, `[]`, `{}`). */
  SCHEMA_EMPTY: 'A field is empty.',
  /** A value has the right type but breaks a format rule (pattern, range, media type). */
  SCHEMA_INVALID_VALUE: 'A value is not valid.',
  /** A URL is not absolute `https:` (`http:` is allowed for localhost only). */
  URL_NOT_HTTPS: 'A URL must be absolute https.',
  /**
   * (warning) An agent interface's url is on a loopback host (localhost, 127.0.0.0/8, [::1]): allowed for
   * trying an agent out, but clients elsewhere cannot reach it.
   */
  URL_LOOPBACK: 'A published URL points at localhost.',
  /** `siteUrl` is not exactly `https://<domain>/` (ARD and did:web need the origin root). */
  SITE_URL_NOT_ROOT: 'siteUrl must be https://<domain>/.',

  // --- the Resource Access Manifest (the RAM proposal) --------------------------------------------
  /** A ResourceAccess names an operation that no file defines. */
  RAM_DANGLING_OPERATION: 'An access names an operation that does not exist.',
  /** An Operation names a resource that no file defines. */
  RAM_DANGLING_RESOURCE: 'An operation names a resource that does not exist.',
  /** Two items of one kind (resource, operation, access, skill, agent) share an id. */
  RAM_DUPLICATE_ID: 'Two items of the same kind share an id.',
  /** One resource or operation is defined in two places with different content. */
  RAM_CONFLICTING_DEFINITION: 'One resource or operation is defined twice, differently.',
  /** An enum is `*_UNSPECIFIED`, which the proto reserves for "not set". */
  RAM_UNSPECIFIED_ENUM: 'An enum value is *_UNSPECIFIED.',
  /** A REST operation has no `apiOperationSpec.httpMethod`. */
  RAM_REST_WITHOUT_HTTP_METHOD: 'A REST operation needs apiOperationSpec.httpMethod.',
  /** (warning) An MCP or A2A operation carries an `apiOperationSpec`, which only REST uses. */
  RAM_API_SPEC_NOT_REST: 'apiOperationSpec only applies to REST operations.',
  /** One object spells one field both in camelCase and in snake_case. */
  RAM_CASE_CONFLICT: 'A field is written both in camelCase and snake_case.',
  /**
   * An MCP operation's `apiOperationSpec.operationId` names another tool than its resource's
   * `spec.resourcePath`: the RAM proposal models one MCP tool per resource (`resource_path`, "the exact Tool
   * name"), whose one operation is its call.
   */
  RAM_MCP_TOOL_MISMATCH: "An MCP operation names another tool than its resource's resourcePath.",
  /** (warning) A resource or operation is defined but no access of any agent uses it. */
  RAM_UNUSED: 'A resource or operation is not used by any access.',
  /** (warning) A CONSUMER (2P) resource is accessed with the agent's own identity. */
  RAM_CONSUMER_AS_AGENT: "A user's own service is accessed as the agent itself.",
  /** (warning) A write (POST, PUT, PATCH, DELETE) as END_USER does not ask first. */
  RAM_WRITE_WITHOUT_CONFIRMATION: 'A write as the user does not ask for confirmation.',
  /**
   * (warning) An operation is marked `readOnly: true`, but its `apiOperationSpec.httpMethod` is POST, PUT,
   * PATCH or DELETE, which are not safe methods (RFC 9110 §9.2.1): found without a stored spec, so the
   * spec's `SPEC_READ_WRITE_MISMATCH` is not given for it as well.
   */
  RAM_READ_ONLY_WRITE_METHOD: 'readOnly: true on an operation whose HTTP method may change data.',
  /** An access maps to a skill id the agent does not declare. */
  RAM_UNKNOWN_SKILL: 'An access names a skill the agent does not have.',

  // --- specs and permissions (DESIGN.md §9) -------------------------------------------------------
  /** A stored spec is not an OpenAPI 3.x document, a Google Discovery document or an MCP tools/list result. */
  SPEC_INVALID: 'The stored spec cannot be read as OpenAPI, Google Discovery or MCP tools/list.',
  /** A stored spec's bytes do not match the resource's `specDigest`. */
  SPEC_DIGEST_MISMATCH: 'The stored spec does not match its pinned digest.',
  /** (warning) A user's own (CONSUMER) resource names a `spec.specUrl` but has no stored copy (`npm run specs` makes one). */
  SPEC_NOT_STORED: 'The spec is not stored in the project.',
  /** (warning) A user's own (CONSUMER) REST resource has no spec, so its permissions cannot be derived. */
  SPEC_MISSING: "A user's own REST resource has no spec.",
  /** A spec could not be fetched or stored by `npm run specs`. */
  SPEC_FETCH_FAILED: 'The spec could not be fetched.',
  /** An operation does not resolve against its resource's spec. */
  SPEC_OPERATION_UNRESOLVED: 'The operation is not in the spec.',
  /** An operation's `httpMethod` disagrees with the spec. */
  SPEC_HTTP_METHOD_MISMATCH: "The operation's HTTP method disagrees with the spec.",
  /** (warning) The author's `readOnly` disagrees with what the spec says the operation does. */
  SPEC_READ_WRITE_MISMATCH: 'readOnly disagrees with the spec.',
  /**
   * (warning) A card asks for a scope broader than the narrowest ones its spec lists for the agent's
   * accesses, and no access names it as needed with a reason (`neededScope`).
   */
  PERMISSION_SCOPE_BROADER: 'The card asks for a broader scope than its accesses explain.',
  /**
   * An access's `neededScope` is not a scope its operation's stored spec accepts, or the operation has no
   * stored spec to check it against.
   */
  ACCESS_SCOPE_NOT_ACCEPTED: "The access's neededScope is not one its operation's spec accepts.",
  /**
   * (warning) The card asks the user to sign in (an OAuth 2.0 flow a person approves, or OpenID Connect), but
   * no access of its RAM acts as the user: what it does with the account is undeclared.
   */
  SIGN_IN_WITHOUT_RAM_ACCESS:
    'The card asks the user to sign in, but the RAM declares nothing done as the user.',
  /** A card's permission sets or permission file disagree with what its RAM and specs give. */
  PERMISSION_FILE_MISMATCH: "The card's permission file does not match its digest.",

  // --- release history (DESIGN.md §9 "Releases", docs/releases.md) ----------------------------------
  /**
   * An agent gained access (an added access or resource, a widening) since its last recorded release,
   * under the same `version`: a widening needs a new version.
   */
  RELEASE_WIDENED_WITHOUT_VERSION: 'The agent gained access without a new version.',
  /**
   * An agent's `version` is one an earlier release recorded, not the last one: going back would let a
   * widening since that release go unchecked.
   */
  RELEASE_VERSION_BEHIND: "The agent's version is an earlier release, not the last one recorded.",
  /** A `content/releases/<slug>.json` file does not have the release history format. */
  RELEASE_HISTORY_INVALID: 'The release history file is not valid.',
  /**
   * A release history loses what is already published: the previous build's (or the live site's)
   * `ram-changes.json` records versions the history file no longer holds, or holds otherwise.
   */
  RELEASE_HISTORY_LOST: 'The release history lost a version that is already published.',
  /** `npm run release` would record a version already recorded with another RAM. */
  RELEASE_VERSION_RECORDED: 'This version is already recorded with another RAM.',
  /**
   * A site's published changes document does not match its card: the last recorded release is the card's
   * version with another RAM that gained access, or the changes it lists are not the changes between them.
   */
  RELEASE_CARD_MISMATCH: 'The published release history does not match the card.',
  /** `npm run diff`: one side could not be read. */
  DIFF_UNREADABLE: 'A site to compare could not be read.',

  // --- agents and cards (A2A) ----------------------------------------------------------------------
  /** A security requirement names a scheme not declared in `securitySchemes`. */
  CARD_UNKNOWN_SECURITY_SCHEME: 'A security requirement names an undeclared scheme.',
  /** A card that should verify (A2A §8.4) does not. */
  CARD_SIGNATURE_INVALID: 'The agent card signature does not verify.',
  /** A card-signature `kid` names no verification method of the DID document it names (DID Core §5.2). */
  CARD_KEY_UNKNOWN: 'The card signature names a key its DID document does not have.',
  /** A card-signature key is in the DID document but not under `assertionMethod` (DID Core §5.3.2). */
  CARD_KEY_NOT_AUTHORISED: 'The card signature key may not sign assertions.',
  /** A card signature's `alg` is not one the trust profile accepts, or does not fit its key (RFC 7518 §3.1). */
  CARD_ALG_NOT_ALLOWED: 'The card signature uses an algorithm that is not allowed.',
  /** A card signature's key is authorised but the signature does not hold over the card (A2A §8.4). */
  CARD_PAYLOAD_CHANGED: 'The card changed after it was signed.',
  /**
   * (warning; an error in the build's self-check) No signature of a card covers the whole card as served
   * (RFC 8785 JCS minus `signatures`): what @a2a-js/sdk's canonical form drops goes unsigned (A2A#2122).
   */
  CARD_PARTLY_SIGNED: 'No card signature covers the whole served card.',
  /** An agent offering a 0.3 interface declares something the A2A v0.3 JSON forms cannot say. */
  CARD_V03_UNREPRESENTABLE: 'The card cannot be described to A2A v0.3 clients.',
  /** jwks.json holds a key under a kid that differs from did.json's key for that kid, or one did.json lacks. */
  JWKS_DID_MISMATCH: 'jwks.json differs from did.json.',
  /** (warning) A JSON document starts with a UTF-8 byte order mark, which senders must not add (RFC 8259 §8.1). */
  JSON_BOM: 'A JSON document starts with a byte order mark.',
  /** The top-level RAM and the extension copy of a card differ. */
  CARD_RAM_COPIES_DIFFER: 'The two RAM copies of a card differ.',
  /** A card's `jku` points to another origin than the site's own. */
  CARD_FOREIGN_JKU: 'The card signature points at a key set on another origin.',
  /**
   * A card names another entry or publisher in its entry extension, or, served from another origin
   * than its publisher's, does not declare its entry at all (ARD draft §6.2).
   */
  CARD_IDENTITY_MISMATCH: 'The card does not declare the entry it belongs to.',
  /**
   * (warning; an error in the build's self-check) A card on its publisher's origin does not name its
   * ARD entry: ARD does not ask it to there (§6.2), ardsite's cards always do (DESIGN.md §3).
   */
  CARD_ENTRY_UNDECLARED: 'The card does not name its ARD entry.',
  /**
   * (warning; an error in the build's self-check) A card carries no A2A signature: A2A makes
   * `signatures` optional (§8.4), ardsite always signs (DESIGN.md §4).
   */
  CARD_UNSIGNED: 'The agent card carries no A2A signature.',
  /**
   * An artifact served from another origin than its publisher's does not declare the entry's
   * identifier or the publisher (ARD draft §6.2, cross-origin target url binding).
   */
  ARD_ORIGIN_UNBOUND: 'An artifact on another origin does not declare its entry.',
  /**
   * An entry of type `application/mcp-server-card+json` points at a document that is not an MCP
   * `server.json` by the MCP registry's official schema (for example a `name` that is not reverse-DNS,
   * `com.example.agents/trip-tools`).
   */
  MCP_SERVER_CARD_INVALID: 'The MCP server card does not match the official server.json schema.',
  /** An entry's `ram:` footprint terms differ from the RAM of the card it pins (DESIGN.md §2). */
  ARD_FOOTPRINT_MISMATCH: "The entry's RAM footprint does not match its card.",
  /**
   * (warning; an error in the build's self-check) A card at `/.well-known/agent-card.json` or
   * `/.well-known/agent.json` is not the card of any entry of the manifest.
   */
  WELL_KNOWN_CARD_UNLISTED: 'A well-known agent card is not the card of any entry.',
  /** A well-known agent card names an entry of the site but is not the card that entry pins. */
  WELL_KNOWN_CARD_MISMATCH: 'A well-known agent card differs from the card of its entry.',
  /**
   * (warning; an error in the build's self-check) `/.well-known/ai-catalog.json`, the ARD v0.9
   * compatibility copy (DESIGN.md §9), does not list the manifest's entries as src/core/ard/ai-catalog.ts
   * writes them: an entry missing, added or different, or the document not an ai-catalog.
   */
  AI_CATALOG_MISMATCH: 'ai-catalog.json does not list the same entries as the manifest.',
  /**
   * (warning; an error in the build's self-check) A trustManifest of ai-catalog.json carries a
   * `signature`: the v0.9 shape has no `subject`, so the signature binds no subject (ai-catalog ADR-0009).
   */
  AI_CATALOG_SIGNATURE_UNBOUND: 'ai-catalog.json carries a signature without subject binding.',

  // --- ARD entries and manifest (ARD draft §3) -----------------------------------------------------
  /** An identifier breaks the URN rule `urn:air:<fqdn>:<namespace>:<name>` (ARD draft §3.4). */
  ARD_URN_INVALID: 'The identifier is not a valid urn:air URN.',
  /** An entry has both or neither of `url` and `data` (ARD draft §3.3). */
  ARD_URL_XOR_DATA: 'An entry needs exactly one of url and data.',
  /** A site-path `url` is not a plain path of this site (`//`, `\\`, `.`/`..` segments, control characters). */
  URL_PATH_INVALID: 'The site path is not a plain path of this site.',
  /** Two entries share (identifier, version). */
  ARD_DUPLICATE_ENTRY: 'Two entries share identifier and version.',
  /** (warning) representativeQueries should hold 2 to 5 queries (ARD draft §3.2.2). */
  ARD_QUERIES_COUNT: 'representativeQueries should hold 2 to 5 queries.',
  /**
   * (warning) An entry with a `url` and no digest: nothing binds what is served there to it (ARD draft
   * §6.2). `npm run check` warns about the site's own entries that point outside the site; the verifier
   * about every own or signed entry (not a registry's, whose url is a service).
   */
  ARD_UNPINNED: 'The entry has a url and no digest.',
  /** A served artifact's sha256 does not match the entry's digest. */
  ARD_DIGEST_MISMATCH: 'The digest does not match the served bytes.',
  /**
   * (warning) A discovery signal is missing or points elsewhere: `<link rel="ard">`, the `Link` header,
   * or (when robots.txt has one; it is optional) robots.txt `Agentmap:`.
   */
  DISCOVERY_MISSING: 'A discovery signal for the manifest is missing.',
  /** (warning) A discovery signal (`<link rel="ard" href>`, `Link`, `Agentmap:`) holds no valid URL. */
  DISCOVERY_INVALID: 'A discovery signal holds no valid URL.',
  /** `npm run verify` reached its `--deadline` before every check ran: the report is partial. */
  VERIFY_INCOMPLETE: 'The deadline passed before every check ran.',
  /** `verify()` found no origin for a folder, or could not find or read its manifest. */
  VERIFY_UNREADABLE: 'The site could not be read.',
  /** The manifest does not have the shape of the CDDL (ARD draft §5). */
  ARD_MANIFEST_INVALID: 'The manifest does not have the ARD shape.',

  // --- trust (ARD draft §3.5, did:web, JWS) --------------------------------------------------------
  /** A trustManifest signature does not verify. */
  TRUST_SIGNATURE_INVALID: 'The trustManifest signature does not verify.',
  /** A trustManifest's subject does not equal its entry. */
  TRUST_SUBJECT_MISMATCH: 'The trustManifest subject does not match the entry.',
  /** The identity of a trustManifest does not bind to the URN's publisher domain. */
  TRUST_AUTHORITY_MISMATCH: "The signer's identity is not the URN's publisher.",
  /** A trustManifest is past its `expiresAt`. */
  TRUST_EXPIRED: 'The trustManifest has expired.',
  /** An own entry has no trustManifest. */
  TRUST_MISSING: 'The entry has no trustManifest.',
  /** A JWS is malformed, attached when it must be detached, or uses a refused `alg`. */
  JWS_INVALID: 'The JWS is malformed or uses a refused algorithm.',
  /** A DID document is missing, malformed, or does not list the key. */
  DID_RESOLUTION_FAILED: 'The DID document could not be resolved or does not list the key.',
  /** A published JWK carries private members. */
  KEY_PRIVATE_PUBLISHED: 'A published key contains private key material.',

  // --- keys ----------------------------------------------------------------------------------------
  /** No signing key is available and none may be created here. */
  KEY_MISSING: 'No signing key is available.',
  /** The signing key cannot be parsed. */
  KEY_INVALID: 'The signing key is malformed.',
  /** The signing key is of a type ardsite does not sign with (ES256 / Ed25519 only). */
  KEY_WRONG_TYPE: 'The signing key is of an unsupported type.',
  /** A key file would be written where git does not ignore it. */
  KEY_NOT_IGNORED: 'The key file path is not ignored by git.',
  /** The signing key file lies in `public/` (or a folder a link in it reaches), which is copied into the site. */
  KEY_IN_PUBLIC_FOLDER: 'The signing key file would be published.',
  /** The signing key is listed under `signing.retiredKeys` with `revoked: true` (matched by RFC 7638 thumbprint). */
  KEY_REVOKED: 'The signing key is revoked.',
  /** The signing key is listed under `signing.retiredKeys` and its `retireAt` has passed. */
  KEY_RETIRED: 'The signing key is retired.',
  /**
   * Key material named by content (a `signing.retiredKeys` entry, a `signing.keyFile`, a key file git
   * tracks) whose RFC 7638 thumbprint the operator has not listed in `ARDSITE_TRUSTED_KEYS`.
   */
  KEY_NOT_CONFIRMED: 'Key material from content is not confirmed by the operator.',

  // --- build ---------------------------------------------------------------------------------------
  /** Content has errors; the build did not start. */
  BUILD_CONTENT_INVALID: 'The content has errors.',
  /** The build's verification of its own output failed; `dist/` was left as it was. */
  /** publisher.yaml `language` or an agent's `language` names a language without page words (src/core/i18n/words/). */
  PAGE_LANGUAGE_UNSUPPORTED: 'There are no page words for this language.',
  /** A page word table lacks a word the English table has (src/core/i18n/words/<language>.ts). */
  PAGE_WORDS_MISSING: 'A page word is missing for this language.',
  /**
   * publisher.yaml `languages` is wrong: a tag that is not BCP 47, a tag listed twice, a `language` that is
   * not one of them, or a registry `basePath` under a language's prefix (docs/languages.md).
   */
  LANGUAGES_INVALID: 'The languages of the site are not valid.',
  /** A text given per language (`{ en: …, pt-BR: … }`) lacks the site's default language. */
  TEXT_LANGUAGE_MISSING: 'A text given per language lacks the default language.',
  /**
   * A text given per language names a language that is not one of the site's (`languages`), or is not a
   * text; or `content/agents/<slug>.<tag>.md` names such a language.
   */
  TEXT_LANGUAGE_UNKNOWN: 'A text is given in a language the site does not publish.',
  /** `content/agents/<slug>.<tag>.md` is not a Markdown body of another language (front matter, the default language). */
  LANGUAGE_FILE_INVALID: 'A file of an agent’s text in another language is not valid.',
  /** An agent sets `language` on a site with `languages:`, whose pages are published in every one of them. */
  AGENT_LANGUAGE_WITH_LANGUAGES: 'An agent’s own language is refused on a site with several languages.',
  /**
   * The build's check of its own output (the verifier's checks of the written folder: digests,
   * signatures, the RAM, the files a crawler reads) found a fault; the output is not published.
   */
  BUILD_SELF_CHECK_FAILED: 'The built site did not verify.',
  /** The static site generator failed. */
  BUILD_RENDER_FAILED: 'Rendering the pages failed.',
  /** A signing worker thread failed (src/core/trust/signer-pool.ts). */
  BUILD_SIGNING_FAILED: 'Signing failed.',
  /** `--out` names a folder whose replacement would destroy something other than a previous build. */
  BUILD_OUT_DIR_UNSAFE: 'The output folder cannot be replaced safely.',
  /** A `_headers` file (Netlify / Cloudflare Pages syntax) does not parse. */
  HEADERS_FILE_INVALID: 'The _headers file is malformed.',

  // --- registry mode (ARD draft §4.2–§4.3) ---------------------------------------------------------
  /** The registry's pageToken HMAC secret is not in the environment variable its settings name. */
  REGISTRY_SECRET_MISSING: 'The registry pageToken secret is not set.',
  /** There is no registry build to serve (no server bundle, or one from another build than `dist/`). */
  REGISTRY_BUILD_MISSING: 'There is no registry build to serve.',
  /** The built site does not verify, so the registry refuses to index it. */
  REGISTRY_INDEX_INVALID: 'The built site does not verify; the registry does not serve it.',
  /** The registry settings contradict the build (for example another basePath) or each other. */
  REGISTRY_CONFIG_INVALID: 'The registry settings are not valid.',
} as const;

/** A stable error code: one key of {@link ERROR_CODES}. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** `error` fails `npm run check` and the build; `warning` is printed and marked `W`. */
export type Severity = 'error' | 'warning';

/**
 * One finding about user input.
 * - `file`: path relative to the project root (or a URL for remote sites), when known.
 * - `path`: the field path inside the document, e.g. `resourceAccesses[2].identityUsed`.
 * - `line`, `column`: 1-based position in `file`, when the parser knows it.
 */
export interface Diagnostic {
  code: ErrorCode;
  severity: Severity;
  message: string;
  file?: string;
  path?: string;
  line?: number;
  column?: number;
}

/**
 * A thrown, coded failure. `diagnostics` holds the findings behind it when there are several (for
 * example every content error of a failed build). The message never contains key material.
 */
export class ArdsiteError extends Error {
  override readonly name = 'ArdsiteError';
  readonly code: ErrorCode;
  readonly diagnostics: readonly Diagnostic[];

  constructor(code: ErrorCode, message: string, diagnostics: readonly Diagnostic[] = []) {
    super(message);
    this.code = code;
    this.diagnostics = diagnostics;
  }
}

/**
 * Formats a field path array (`['resourceAccesses', 2, 'identityUsed']`) as
 * `resourceAccesses[2].identityUsed`.
 */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

/**
 * Renders a diagnostic as one line: `file:line:col  path  message  [CODE]`, prefixed with `W` for
 * warnings and `E` for errors, the way `npm run check` prints it.
 */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.file ? `${d.file}${d.line ? `:${d.line}${d.column ? `:${d.column}` : ''}` : ''}` : '';
  const parts = [d.severity === 'error' ? 'E' : 'W', where, d.path ?? '', d.message, `[${d.code}]`];
  return parts.filter((p) => p !== '').join('  ');
}

/**
 * `error` with its error diagnostics spelled out in its message, one {@link formatDiagnostic} line each
 * (warnings left out), for where only the message is shown: the dev server's overlay and log. Any other
 * error, or one without error diagnostics, is returned as it is.
 */
export function withDiagnosticsInMessage(error: unknown): unknown {
  if (!(error instanceof ArdsiteError)) return error;
  const errors = error.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length === 0) return error;
  return new ArdsiteError(
    error.code,
    `${error.message}:\n${errors.map((d) => `  ${formatDiagnostic(d)}`).join('\n')}`,
    error.diagnostics,
  );
}

/** True when at least one diagnostic is an error. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
