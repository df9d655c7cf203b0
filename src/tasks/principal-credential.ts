import type { Principal } from '../auth/principal';

/** The credential a task is bound to: a team API token or a user (OAuth). */
export interface Credential {
  kind: 'team_token' | 'user';
  id: number;
}

/** The credential of a principal (tasks are bound to it; architecture.md "Async tasks"). */
export function credentialOf(principal: Principal): Credential {
  const { identity } = principal;
  const id = identity.kind === 'team_token' ? identity.tokenId : identity.userId;
  if (id === undefined) throw new Error(`principal of kind ${identity.kind} has no credential id`);
  return { kind: identity.kind, id };
}
