import type { TeamInvite } from './team-invite.entity';
import { ApiInt } from '../common/http/api-schemas';

/** Wire form of an open team invite (spec "Team invite"). */
export class TeamInviteJson {
  @ApiInt()
  id!: number;
  email!: string;
}

/**
 * Answer of an invite POST whose address belongs to an existing user: the user was added to the team directly
 * and no invite exists, so there is no `id` (spec "Teams"; compat §3.1).
 */
export class AddedMemberJson {
  email!: string;
}

export function toTeamInviteJson(invite: TeamInvite): TeamInviteJson {
  return { id: invite.id, email: invite.email };
}
