import type { User } from '../auth/user.entity';
import { ApiInt } from '../common/http/api-schemas';

/** Wire form of a team member (spec "Team member"): the user's id, e-mail, name and whether they use 2FA. */
export class TeamMemberJson {
  /** User id. */
  @ApiInt()
  id!: number;
  email!: string;
  fullname!: string | null;
  require_2fa!: boolean;
}

export function toTeamMemberJson(user: User): TeamMemberJson {
  return { id: user.id, email: user.email, fullname: user.fullname, require_2fa: user.requires2fa };
}
