import { ItemQueries } from '../../catalogue/items/item.queries';
import { QuestionQueries } from '../../catalogue/questions/question.queries';
import { SqlFragment, sqlFragment } from '../../common/persistence/sql-fragment';
import { SubEventQueries } from '../../organizers/subevents/subevent.queries';
import { TenancyQueries } from '../../organizers/tenancy.queries';
import { CheckinSeamQueries } from '../checkin-seam/checkin-seam.queries';
import { OrderListQueries } from './order-list.queries';

/**
 * The SQL behind `pdf_data=true` (compat §4.4): what a ticket layout's variables need of a position beyond its own
 * wire form, read as scalar subqueries of the statement that reads the positions (no statement more, whatever the
 * page size). Product, variation and category names come from the catalogue's fragment, the date from the
 * organizers' fragment; this file names only order tables.
 */
export class PdfDataQueries {
  /**
   * Fragment, scalar subquery: the print facts of the position aliased `p` as JSON `{it, se, ord, par, ad, org}`
   * (see `PositionPrintFacts` in `pdf-data.rules.ts`): product labels, date, order (code, contact, time, locale,
   * invoice address), parent position (attendee data, seat, answers), its non-canceled add-ons (labels, price,
   * bundled, checked in) and the organizer's name. Aliases `pf*` inside.
   */
  static positionFacts(p: string): SqlFragment {
    const answers = new OrderListQueries();
    const seam = new CheckinSeamQueries();
    return sqlFragment(`jsonb_build_object(
      'it', ${ItemQueries.printLabelsOf(`${p}.item_id`, `${p}.variation_id`)},
      'se', ${new SubEventQueries().printLabelsOf(`${p}.subevent_id`)},
      'org', ${new TenancyQueries().organizerNameOf(`(SELECT pfe.organizer_id FROM orders pfe WHERE pfe.id = ${p}.order_id)`)},
      'ord', (SELECT jsonb_build_object('c', pfo.code, 'em', pfo.email, 'ph', pfo.phone, 'dt', pfo.datetime,
          'lc', pfo.locale, 'ia', (SELECT jsonb_build_object('np', pfa.name_parts, 'co', pfa.company,
            'st', pfa.street, 'zc', pfa.zipcode, 'ci', pfa.city, 'sa', pfa.state, 'cn', pfa.country)
            FROM invoice_address pfa WHERE pfa.order_id = pfo.id))
        FROM orders pfo WHERE pfo.id = ${p}.order_id),
      'par', (SELECT jsonb_build_object('np', pfp.attendee_name_parts, 'co', pfp.company, 'st', pfp.street,
          'zc', pfp.zipcode, 'ci', pfp.city, 'sa', pfp.state, 'cn', pfp.country, 'em', pfp.attendee_email,
          'seat', ${answers.positionSeat('pfp.seat_id')}, 'ans', ${answers.answersOf('pfp.id')})
        FROM order_position pfp WHERE pfp.id = ${p}.addon_to_id),
      'ad', (SELECT coalesce(jsonb_agg(jsonb_build_object(
          'it', ${ItemQueries.printLabelsOf('pfd.item_id', 'pfd.variation_id')}, 'pr', pfd.price, 'b', pfd.is_bundled,
          'ci', ${seam.checkins('pfd.id')} <> '[]'::jsonb) ORDER BY pfd.positionid, pfd.id), '[]'::jsonb)
        FROM order_position pfd WHERE pfd.addon_to_id = ${p}.id AND NOT pfd.canceled))`);
  }

  /**
   * Fragment, uncorrelated scalar subquery (evaluated once per statement): the questions of event `eventId` as
   * `[id, identifier, type]` (the `question_*` variables and images).
   */
  static eventQuestions(eventId: number): SqlFragment {
    return QuestionQueries.printQuestionsOf(String(Math.trunc(eventId)));
  }
}
