/**
 * Sign-in from both sides (DESIGN.md §9 "Truth on pages"): what the card's security says (A2A v1.0
 * `AgentCard.securitySchemes` / `securityRequirements`: an OAuth 2.0 flow a person approves, RFC 6749 §4.1
 * authorization code, RFC 8628 device code, §4.2 implicit, §4.3 password; or OpenID Connect) and what the
 * RAM says (the RAM proposal's `IdentityType.END_USER`: the access runs with the user's credentials). A
 * page says what is known from both, never "no sign-in" for an agent that acts as the user, nor "does not
 * access any of your accounts" for one whose card asks the user to sign in; `npm run check` warns where
 * the two disagree (the card signs the user in, and the RAM declares nothing done as the user).
 */
import type { AgentModel } from '../model/content.js';
import { formatPath, type Diagnostic } from '../util/errors.js';
import type { SecuritySchemeInput } from '../schema/security.js';

/** True when `scheme` signs a person in with their own account (see the module's doc); client credentials, keys and certificates do not. */
export function signsInUser(scheme: SecuritySchemeInput): boolean {
  const flows = scheme.oauth2SecurityScheme?.flows;
  if (flows && (flows.authorizationCode || flows.deviceCode || flows.implicit || flows.password)) return true;
  return scheme.openIdConnectSecurityScheme !== undefined;
}

/** What the card and the RAM of one agent say about signing the user in. */
export interface SignInFacts {
  /** The card declares some security scheme (any kind). */
  cardDeclaresSecurity: boolean;
  /** The names (`securitySchemes` keys) of the card's schemes that sign the user in, in card order. */
  userSchemes: string[];
  /** The ids of the RAM resources some access reaches as the user (`END_USER`), in RAM order. */
  asUserResources: string[];
}

/** The sign-in facts of `agent` (its front matter's security and its emitted RAM). Pure. */
export function signInFacts(agent: Pick<AgentModel, 'front' | 'ram'>): SignInFacts {
  const schemes = Object.entries(agent.front.securitySchemes ?? {});
  const operations = new Map(agent.ram.operations.map((o) => [o.id, o.resource]));
  const asUser = new Set(
    agent.ram.resourceAccesses
      .filter((a) => a.identityUsed === 'END_USER')
      .flatMap((a) => operations.get(a.operation) ?? []),
  );
  return {
    cardDeclaresSecurity: schemes.length > 0,
    userSchemes: schemes.filter(([, s]) => signsInUser(s)).map(([name]) => name),
    asUserResources: agent.ram.resources.filter((r) => asUser.has(r.id)).map((r) => r.id),
  };
}

/**
 * Warnings where `agent`'s card and RAM disagree on signing the user in: `SIGN_IN_WITHOUT_RAM_ACCESS` at
 * each scheme of the card that signs the user in when no access of the RAM acts as the user (what it does
 * with the account is undeclared). A card that declares no security beside a RAM that acts as the user is
 * silent, not contradictory (the user may link the account with the agent itself): the pages say it acts
 * as the user, and nothing is warned. Pure.
 */
export function signInFindings(agent: AgentModel): Diagnostic[] {
  const facts = signInFacts(agent);
  if (facts.asUserResources.length > 0) return [];
  return facts.userSchemes.map((name) => {
    const p = ['securitySchemes', name];
    return agent.source.diagnostic(
      {
        code: 'SIGN_IN_WITHOUT_RAM_ACCESS',
        severity: 'warning',
        message: `the card asks the user to sign in ("${name}"), but no access of its RAM acts as the user (identityUsed: END_USER): the pages cannot say what the agent does with the user's account. Declare the accesses it makes with that sign-in`,
        path: formatPath(p),
      },
      p,
    );
  });
}
