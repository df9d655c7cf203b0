import { IsStr, Required } from '../common/validation/fields';

/** Body of `POST O/teams/{team}/tokens/` (spec "Team API token"; compat §3.1). */
export class CreateTeamApiTokenDto {
  @Required()
  @IsStr({ max: 190, blank: false })
  name!: string;
}
