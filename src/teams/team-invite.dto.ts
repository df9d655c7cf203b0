import { IsEmailAddress, Required } from '../common/validation/fields';

/** Body of `POST O/teams/{team}/invites/` (spec "Team invite"; compat §3.1). */
export class CreateTeamInviteDto {
  @Required()
  @IsEmailAddress()
  email!: string;
}
