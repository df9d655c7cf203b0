import type { Principal } from '../auth/principal';

/** The credential a task is bound to: a team API token, a user (OAuth) or a device (its database id). */
export interface Credential {
  kind: 'team_token' | 'user' | 'device';
  id: number;
}

/** The credential of a principal (tasks are bound to it; architecture.md "Async tasks"). */
export function credentialOf(principal: Principal): Credential {
  const { identity } = principal;
  const id =
    identity.kind === 'team_token'
      ? identity.tokenId
      : identity.kind === 'device'
        ? identity.device?.id
        : identity.userId;
  if (id === undefined) throw new Error(`principal of kind ${identity.kind} has no credential id`);
  return { kind: identity.kind, id };
}
