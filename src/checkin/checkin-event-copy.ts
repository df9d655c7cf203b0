import { Injectable, OnModuleInit } from '@nestjs/common';
import { copyRows, IdMap } from '../common/persistence/copy-rows.queries';
import { EVENT_COPY_STAGE, EventCopy, EventHooks } from '../organizers/event-hooks';
import {
  AutoCheckinRule,
  AutoCheckinRuleItem,
  AutoCheckinRuleVariation,
} from './auto-checkin/auto-checkin-rule.entity';
import { CheckinList, CheckinListProduct } from './checkin-list.entity';
import { CheckinCopyQueries } from './checkin-event-copy.queries';

/**
 * The check-in context's part of cloning an event (pretix `Event.copy_data_from`): the check-in lists without a
 * date, their products (rewritten to the copied items) and their rules, whose `lookup` of a product or
 * variation is rewritten to the copy (`"0"` when it names none of the source's), as pretix does; and the
 * automatic check-in rules (pretix's autocheckin plugin copies them too) whose list was copied or that name no
 * list, with their products and variations. Columns come from the entity metadata, so new columns are copied
 * without edits here.
 */
@Injectable()
export class CheckinEventCopy implements OnModuleInit {
  constructor(
    private readonly hooks: EventHooks,
    private readonly queries: CheckinCopyQueries,
  ) {}

  onModuleInit(): void {
    this.hooks.onEventCopy(EVENT_COPY_STAGE.checkin, 'checkin', (copy) => this.copy(copy));
  }

  /** Copies the lists, adds the `checkin_list` map to `copy.maps`. */
  async copy(copy: EventCopy): Promise<void> {
    const { em, source, target, maps } = copy;
    const items = maps.get('item') ?? new Map<number, number>();
    const variations = maps.get('item_variation') ?? new Map<number, number>();
    const lists = await copyRows(em, {
      entity: CheckinList,
      where: 's.event_id = $1 AND s.subevent_id IS NULL',
      params: [source.id],
      columns: { event_id: { value: target.id } },
    });
    if (lists.size > 0) {
      await copyRows(em, {
        entity: CheckinListProduct,
        where: 's.list_id = ANY($1)',
        params: [[...lists.keys()]],
        columns: { list_id: { map: lists }, item_id: { map: items } },
      });
      const rows = await this.queries.rulesWithLookups(em, [...lists.values()]);
      for (const row of rows) {
        await this.queries.setRules(em, row.id, remapRules(row.rules, items, variations));
      }
    }
    const rules = await copyRows(em, {
      entity: AutoCheckinRule,
      where: 's.event_id = $1 AND (s.list_id IS NULL OR s.list_id = ANY($2))',
      params: [source.id, [...lists.keys()]],
      columns: { event_id: { value: target.id }, list_id: { map: lists } },
    });
    if (rules.size > 0) {
      const ofRules = { where: 's.rule_id = ANY($1)', params: [[...rules.keys()]] };
      await copyRows(em, {
        entity: AutoCheckinRuleItem,
        ...ofRules,
        columns: { rule_id: { map: rules }, item_id: { map: items } },
      });
      await copyRows(em, {
        entity: AutoCheckinRuleVariation,
        ...ofRules,
        columns: { rule_id: { map: rules }, variation_id: { map: variations } },
      });
    }
    maps.set('checkin_list', lists);
    await copy.logCloned('checkinlist', lists.values());
  }
}

/** A JSON-logic rule tree with every `{"lookup": ["product"|"variation", "<id>", …]}` pointed at the copy. */
export function remapRules(rules: unknown, items: IdMap, variations: IdMap): unknown {
  if (Array.isArray(rules)) return rules.map((r) => remapRules(r, items, variations));
  if (rules === null || typeof rules !== 'object') return rules;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rules)) {
    if (key === 'lookup' && Array.isArray(value) && (value[0] === 'product' || value[0] === 'variation')) {
      const map = value[0] === 'product' ? items : variations;
      const copied = map.get(Number(value[1]));
      out[key] = [value[0], copied === undefined ? '0' : String(copied), ...(value.slice(2) as unknown[])];
    } else {
      out[key] = remapRules(value, items, variations);
    }
  }
  return out;
}
