import type { TeamApiToken } from './team-api-token.entity';
import { ApiInt } from '../common/http/api-schemas';

/** Wire form of a team API token without its secret (spec "Team API token"). */
export class TeamApiTokenJson {
  @ApiInt()
  id!: number;
  name!: string;
  /** Once false, never true again. */
  active!: boolean;
}

/** The creating response: the only place the secret `token` (64 characters) ever appears. */
export class CreatedTeamApiTokenJson extends TeamApiTokenJson {
  token!: string;
}

export function toTeamApiTokenJson(token: TeamApiToken): TeamApiTokenJson {
  return { id: token.id, name: token.name, active: token.active };
}
