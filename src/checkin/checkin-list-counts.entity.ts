import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { CheckinList } from './checkin-list.entity';

/** Stripes of a list's counts: a position counts in stripe `position id % CHECKIN_COUNT_STRIPES`. */
export const CHECKIN_COUNT_STRIPES = 8;

/**
 * Maintained check-in counts of a check-in list (README "Live figures", `E/stats/`): `checked_in` positions
 * (with at least one successful entry scan on the list) and those `inside` (their last successful scan on the
 * list is an entry). Striped by position ({@link CHECKIN_COUNT_STRIPES}) so that gates scanning at once do not
 * queue on one row; a reader sums the stripes. Moved by a statement trigger on `checkin` (insert, update,
 * delete: scans, annulments, cascades) in the same transaction (migration `LiveFigureCounters`);
 * `CheckinCountsCheck` recomputes them from the rows.
 */
@Entity('checkin_list_counts')
export class CheckinListCounts {
  @PrimaryColumn({ type: 'int' })
  listId!: number;

  @ManyToOne(() => CheckinList, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'list_id' })
  list?: CheckinList;

  @PrimaryColumn({ type: 'smallint' })
  slot!: number;

  @Column({ type: 'int', default: 0 })
  checkedIn!: number;

  @Column({ type: 'int', default: 0 })
  inside!: number;
}
