import { ApiInt } from '../common/http/api-schemas';
/** The team a token acts for, in `/api/v1/me`. */
export class MeTeamJson {
  @ApiInt()
  id!: number;
  name!: string;
  /** Slug of the team's organizer. */
  organizer!: string;
}

/**
 * `GET /api/v1/me` (spec "User profile"). For a user every profile field is set; for a team token the profile
 * fields are null and `team` describes the token's team.
 */
export class MeJson {
  email!: string | null;
  fullname!: string | null;
  locale!: string | null;
  is_staff!: boolean;
  timezone!: string | null;
  /** `token` or `oauth`. */
  auth_method!: string;
  team!: MeTeamJson | null;
}
