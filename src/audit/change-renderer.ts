import { SetMetadata } from '@nestjs/common';
import type { Principal } from '../auth/principal';
import type { ObjectRef } from '../common/listing/object-refs';

/**
 * Renderer contributions of the change feed (issue 27 §1, README "Change feed"): the context that owns a resource
 * marks one of its providers with {@link RendersChanges} and implements {@link ChangeRenderer}; the feed (in
 * src/sync/, which may not import the contexts above it) discovers the marked providers at boot. So each context
 * renders its own objects, through its own presenter, exactly as its detail GET answers them.
 */

/** What a renderer may need besides the objects: the organizer of the feed and the credential reading it. */
export interface ChangeRenderScope {
  organizer: { id: number; slug: string };
  /** The credential reading the feed (some answers depend on it, e.g. a device's tokens). */
  principal: Principal;
}

/** A provider that renders the objects of one resource of the change feed in bulk. */
export interface ChangeRenderer {
  /**
   * The objects `refs` names (of the scope's organizer, and of the ref's event for event-scoped resources) as
   * their detail GET answers them, by id; objects that no longer exist (or belong elsewhere) are absent. One or
   * two statements whatever the number of refs.
   */
  renderChanges(scope: ChangeRenderScope, refs: readonly ObjectRef[]): Promise<Map<number, unknown>>;
}

/** Metadata key of {@link RendersChanges}. */
export const RENDERS_CHANGES = 'ticketing:renders-changes';

/** Marks a provider (a {@link ChangeRenderer}) as the change feed's renderer of `resource` (e.g. `device`). */
export const RendersChanges = (resource: string) => SetMetadata(RENDERS_CHANGES, resource);
