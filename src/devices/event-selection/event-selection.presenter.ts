import { ApiInt } from '../../common/http/api-schemas';

/** The event a device is sent to (pretix `EventSelectionView`). */
export class EventSelectionEventJson {
  slug!: string;
  /** The event's name as one text (default language first). */
  name!: string;
}

/**
 * 200 answer of `GET /api/v1/device/eventselection` (pretix `EventSelectionView._suggest_event`): the event the
 * device should scan for, its date (event series) and the suggested check-in list.
 */
export class EventSelectionJson {
  event!: EventSelectionEventJson;
  /** Sub-event id, or null for an event without dates. */
  @ApiInt({ nullable: true })
  subevent!: number | null;
  /** Suggested check-in list id, or null when the event has none. */
  @ApiInt({ nullable: true })
  checkinlist!: number | null;
}
