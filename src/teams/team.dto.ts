import { PartialType } from '@nestjs/swagger';
import { EVENT_PERMISSIONS, ORGANIZER_PERMISSIONS } from '../auth/permissions';
import { IsBool, IsStr, IsStrList, Optional, Required } from '../common/validation/fields';

/**
 * Body of `POST O/teams/` and `PUT O/teams/{id}/` (spec "Team"; compat §3.1). Permission lists take the
 * colon-form names; the deprecated `can_*` booleans are aliases: `true` adds the names they stand for to the
 * list, `false` removes them (compat §2.4), applied after the lists of the same body. They are not stored, so a
 * PUT that omits them changes nothing through them.
 */
export class CreateTeamDto {
  @Required()
  @IsStr({ max: 190, blank: false })
  name!: string;

  /** Access to all events of the organizer, including future ones. */
  @Optional()
  @IsBool()
  all_events?: boolean;

  /** Slugs of events of this organizer; must be empty when `all_events` is true. */
  @Optional()
  @IsStrList()
  limit_events?: string[];

  @Optional()
  @IsBool()
  require_2fa?: boolean;

  @Optional()
  @IsBool()
  all_event_permissions?: boolean;

  @Optional()
  @IsStrList(EVENT_PERMISSIONS)
  limit_event_permissions?: string[];

  @Optional()
  @IsBool()
  all_organizer_permissions?: boolean;

  @Optional()
  @IsStrList(ORGANIZER_PERMISSIONS)
  limit_organizer_permissions?: string[];

  /** Deprecated: `organizer.events:create`. */
  @Optional()
  @IsBool()
  can_create_events?: boolean;

  /** Deprecated: `organizer.teams:write`. */
  @Optional()
  @IsBool()
  can_change_teams?: boolean;

  /** Deprecated: `organizer.settings.general:write`, `organizer.devices:read`, `organizer.devices:write`. */
  @Optional()
  @IsBool()
  can_change_organizer_settings?: boolean;

  /** Deprecated: `organizer.customers:read`, `organizer.customers:write`. */
  @Optional()
  @IsBool()
  can_manage_customers?: boolean;

  /** Deprecated: `organizer.reusablemedia:read`, `organizer.reusablemedia:write`. */
  @Optional()
  @IsBool()
  can_manage_reusable_media?: boolean;

  /** Deprecated: `organizer.giftcards:read`, `organizer.giftcards:write`. */
  @Optional()
  @IsBool()
  can_manage_gift_cards?: boolean;

  /** Deprecated: the `event.settings.*:write` names and `event.subevents:write`. */
  @Optional()
  @IsBool()
  can_change_event_settings?: boolean;

  /** Deprecated: `event.items:write`. */
  @Optional()
  @IsBool()
  can_change_items?: boolean;

  /** Deprecated: `event.orders:read`. */
  @Optional()
  @IsBool()
  can_view_orders?: boolean;

  /** Deprecated: `event.orders:write`, `event:cancel`. */
  @Optional()
  @IsBool()
  can_change_orders?: boolean;

  /** Deprecated: `event.vouchers:read`. */
  @Optional()
  @IsBool()
  can_view_vouchers?: boolean;

  /** Deprecated: `event.vouchers:write`. */
  @Optional()
  @IsBool()
  can_change_vouchers?: boolean;

  /** Deprecated: `event.orders:checkin`. */
  @Optional()
  @IsBool()
  can_checkin_orders?: boolean;
}

/** Body of `PATCH O/teams/{id}/`: every field optional, none nullable. */
export class UpdateTeamDto extends PartialType(CreateTeamDto, { skipNullProperties: false }) {}
