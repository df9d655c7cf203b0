import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { copyRows, IdMap } from '../common/persistence/copy-rows.queries';
import { EVENT_COPY_STAGE, EventCopy, EventHooks } from '../organizers/event-hooks';
import { ItemAddon } from './addons/item-addon.entity';
import { CatalogueCopyQueries } from './catalogue-event-copy.queries';
import { ItemBundle } from './bundles/item-bundle.entity';
import { ItemCategory } from './categories/item-category.entity';
import { Discount } from './discounts/discount.entity';
import { ItemMetaProperty } from './item-meta-properties/item-meta-property.entity';
import { Item } from './items/item.entity';
import { ItemProgramTime } from './program-times/item-program-time.entity';
import { QuestionOption } from './questions/question-option.entity';
import { Question } from './questions/question.entity';
import { Quota } from './quotas/quota.entity';
import { TaxRule } from './tax-rules/tax-rule.entity';
import { ItemVariation } from './variations/item-variation.entity';

/**
 * The catalogue's part of cloning an event (pretix `Event.copy_data_from`; compat §4.2): tax rules, categories,
 * items (+ variations, add-ons, bundles), quotas without a date (+ their items and variations; reopened),
 * discounts (+ their condition and benefit items), questions (+ options, item links, dependencies), item meta
 * properties (the values are the items' `meta_data`, copied with them) and item program times (only when neither
 * event is a series, as pretix). Every foreign key is rewritten to the copies; columns come from the entity
 * metadata ({@link copyRows}), so new columns are copied without edits here. Not copied, as in pretix: vouchers,
 * dates of a series and their quotas and price overrides. Tables added later plug in here, in dependency order.
 */
@Injectable()
export class CatalogueEventCopy implements OnModuleInit {
  constructor(
    private readonly hooks: EventHooks,
    private readonly queries: CatalogueCopyQueries,
  ) {}

  onModuleInit(): void {
    this.hooks.onEventCopy(EVENT_COPY_STAGE.catalogue, 'catalogue', (copy) => this.copy(copy));
  }

  /** Copies the catalogue and adds its id maps to `copy.maps`. */
  async copy(copy: EventCopy): Promise<void> {
    const { em, source, target, maps } = copy;
    const ofEvent = { where: 's.event_id = $1', params: [source.id] };
    const event = { event_id: { value: target.id } };

    await copyRows(em, { entity: ItemMetaProperty, ...ofEvent, columns: event });
    const taxRules = await copyRows(em, { entity: TaxRule, ...ofEvent, columns: event });
    const categories = await copyRows(em, { entity: ItemCategory, ...ofEvent, columns: event });
    const items = await copyRows(em, {
      entity: Item,
      ...ofEvent,
      columns: {
        ...event,
        category_id: { map: categories },
        tax_rule_id: { map: taxRules },
        hidden_if_item_available: 'self',
        hidden_if_available: { value: null }, // set below, once quotas are copied
      },
    });
    const itemsOfSource = {
      where: 's.item_id IN (SELECT id FROM item WHERE event_id = $1)',
      params: [source.id],
    };
    if (!source.hasSubevents && !target.hasSubevents) {
      await copyRows(em, {
        entity: ItemProgramTime,
        ...itemsOfSource,
        columns: { ...event, item_id: { map: items } },
      });
    }
    const variations = await copyRows(em, {
      entity: ItemVariation,
      ...itemsOfSource,
      columns: { item_id: { map: items } },
    });
    const baseItems = {
      where: 's.base_item_id IN (SELECT id FROM item WHERE event_id = $1)',
      params: [source.id],
    };
    await copyRows(em, {
      entity: ItemAddon,
      ...baseItems,
      columns: { base_item_id: { map: items }, addon_category_id: { map: categories } },
    });
    await copyRows(em, {
      entity: ItemBundle,
      ...baseItems,
      columns: {
        base_item_id: { map: items },
        bundled_item_id: { map: items },
        bundled_variation_id: { map: variations },
      },
    });
    await this.queries.remapCrossSelling(em, target.id, items);

    const quotas = await copyRows(em, {
      entity: Quota,
      where: 's.event_id = $1 AND s.subevent_id IS NULL',
      params: [source.id],
      columns: { ...event, closed: { value: false } },
    });
    await copyLinks(em, 'quota_item', 'quota_id', quotas, 'item_id', items);
    await copyLinks(em, 'quota_variation', 'quota_id', quotas, 'variation_id', variations);
    await this.queries.pointHiddenIfAvailable(em, source.id, target.id, quotas, items);

    const discounts = await copyRows(em, { entity: Discount, ...ofEvent, columns: event });
    await copyLinks(em, 'discount_condition_item', 'discount_id', discounts, 'item_id', items);
    await copyLinks(em, 'discount_benefit_item', 'discount_id', discounts, 'item_id', items);

    const questions = await copyRows(em, {
      entity: Question,
      ...ofEvent,
      columns: { ...event, dependency_question_id: 'self' },
    });
    await copyLinks(em, 'question_item', 'question_id', questions, 'item_id', items);
    const options = await copyRows(em, {
      entity: QuestionOption,
      where: 's.question_id IN (SELECT id FROM question WHERE event_id = $1)',
      params: [source.id],
      columns: { ...event, question_id: { map: questions } },
    });

    for (const [name, map] of Object.entries({
      tax_rule: taxRules,
      item_category: categories,
      item: items,
      item_variation: variations,
      quota: quotas,
      discount: discounts,
      question: questions,
      question_option: options,
    })) {
      maps.set(name, map);
    }
    await copy.logCloned('taxrule', taxRules.values());
    await copy.logCloned('itemcategory', categories.values());
    await copy.logCloned('item', items.values());
    await copy.logCloned('quota', quotas.values());
    await copy.logCloned('discount', discounts.values());
    await copy.logCloned('question', questions.values());
  }
}

/** Copies the rows of a link table whose `owner` is a copied row, both keys rewritten; one statement. */
async function copyLinks(
  em: EntityManager,
  table: string,
  owner: string,
  owners: IdMap,
  other: string,
  others: IdMap,
): Promise<void> {
  if (owners.size === 0) return;
  await copyRows(em, {
    entity: table,
    where: `s.${owner} = ANY($1) AND s.${other} = ANY($2)`,
    params: [[...owners.keys()], [...others.keys()]],
    columns: { [owner]: { map: owners }, [other]: { map: others } },
  });
}
