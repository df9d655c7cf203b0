import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** A position of an order as automatic check-in matches it (not canceled). */
export interface AutoCheckinPosition {
  id: number;
  positionid: number;
  itemId: number;
  variationId: number | null;
  subeventId: number | null;
}

/** What automatic check-in reads of an order: its positions and the providers of its settled payments. */
export interface AutoCheckinOrderInputs {
  positions: AutoCheckinPosition[];
  /** Providers of the order's payments in state `confirmed` or `refunded` (pretix), distinct. */
  paymentMethods: string[];
}

/**
 * SEAM between orders and the check-in context's automatic check-in (pretix plugin `autocheckin`): the order's
 * positions and payment providers, read on the caller's `em` inside the transaction that places or pays the order
 * (so the rows just written are seen). Reads orders' tables only.
 */
@Injectable()
export class AutoCheckinInputs {
  /** The order's positions that are not canceled (by `positionid`) and settled payment providers; one statement. */
  async of(em: EntityManager, orderId: number): Promise<AutoCheckinOrderInputs> {
    const rows: { positions: AutoCheckinPosition[]; methods: string[] }[] = await em.query(
      `SELECT (SELECT coalesce(jsonb_agg(jsonb_build_object('id', p.id, 'positionid', p.positionid,
                        'itemId', p.item_id, 'variationId', p.variation_id, 'subeventId', p.subevent_id)
                        ORDER BY p.positionid), '[]'::jsonb)
                 FROM order_position p WHERE p.order_id = $1 AND NOT p.canceled) AS positions,
              (SELECT coalesce(array_agg(DISTINCT pay.provider), '{}')
                 FROM order_payment pay WHERE pay.order_id = $1 AND pay.state IN ('confirmed', 'refunded')) AS methods`,
      [orderId],
    );
    return { positions: rows[0].positions, paymentMethods: rows[0].methods };
  }
}
