import {
  LEGACY_EVENT_FLAGS,
  LEGACY_ORGANIZER_FLAGS,
  legacyFlagsOf,
  PermissionSet,
} from '../auth/permissions';
import type { Team } from './team.entity';
import { ApiInt } from '../common/http/api-schemas';

/**
 * Wire form of a team (spec "Team"; compat §3.1). The legacy `can_*` booleans are derived: true when the team's
 * permission set grants every name the flag stands for (so `all_*_permissions` makes them all true).
 */
export class TeamJson {
  @ApiInt()
  id!: number;
  name!: string;
  all_events!: boolean;
  /** Event slugs, sorted. */
  limit_events!: string[];
  require_2fa!: boolean;
  all_event_permissions!: boolean;
  /** Sorted colon-form names. */
  limit_event_permissions!: string[];
  all_organizer_permissions!: boolean;
  /** Sorted colon-form names. */
  limit_organizer_permissions!: string[];
  can_create_events!: boolean;
  can_change_teams!: boolean;
  can_change_organizer_settings!: boolean;
  can_manage_customers!: boolean;
  can_manage_reusable_media!: boolean;
  can_manage_gift_cards!: boolean;
  can_change_event_settings!: boolean;
  can_change_items!: boolean;
  can_view_orders!: boolean;
  can_change_orders!: boolean;
  can_view_vouchers!: boolean;
  can_change_vouchers!: boolean;
  can_checkin_orders!: boolean;
}

/** Presents a team; `limitEventSlugs` are the slugs of its `limit_events` (loaded by the caller, in bulk). */
export function toTeamJson(team: Team, limitEventSlugs: readonly string[]): TeamJson {
  const eventSet = new PermissionSet(team.allEventPermissions, new Set(team.limitEventPermissions));
  const organizerSet = new PermissionSet(
    team.allOrganizerPermissions,
    new Set(team.limitOrganizerPermissions),
  );
  const organizerFlags = legacyFlagsOf(organizerSet, LEGACY_ORGANIZER_FLAGS);
  const eventFlags = legacyFlagsOf(eventSet, LEGACY_EVENT_FLAGS);
  return {
    id: team.id,
    name: team.name,
    all_events: team.allEvents,
    limit_events: [...limitEventSlugs].sort(),
    require_2fa: team.require2fa,
    all_event_permissions: team.allEventPermissions,
    limit_event_permissions: [...team.limitEventPermissions].sort(),
    all_organizer_permissions: team.allOrganizerPermissions,
    limit_organizer_permissions: [...team.limitOrganizerPermissions].sort(),
    can_create_events: organizerFlags.can_create_events,
    can_change_teams: organizerFlags.can_change_teams,
    can_change_organizer_settings: organizerFlags.can_change_organizer_settings,
    can_manage_customers: organizerFlags.can_manage_customers,
    can_manage_reusable_media: organizerFlags.can_manage_reusable_media,
    can_manage_gift_cards: organizerFlags.can_manage_gift_cards,
    can_change_event_settings: eventFlags.can_change_event_settings,
    can_change_items: eventFlags.can_change_items,
    can_view_orders: eventFlags.can_view_orders,
    can_change_orders: eventFlags.can_change_orders,
    can_view_vouchers: eventFlags.can_view_vouchers,
    can_change_vouchers: eventFlags.can_change_vouchers,
    can_checkin_orders: eventFlags.can_checkin_orders,
  };
}
