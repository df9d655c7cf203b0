import { readFileSync } from 'fs';
import Handlebars from 'handlebars';
import { join } from 'path';
import type { ApplicationsView, AuthorizedView, ConsentView } from './oauth-pages.service';

/** Every page form carries the session's CSRF token (a hidden `csrf_token` field). */
interface WithCsrf {
  csrf: string;
}

/** The model each page template (`templates/<name>.hbs`) renders. */
export interface PageModels {
  message: { message: string };
  login: WithCsrf & { next: string; error: string | null };
  consent: WithCsrf & ConsentView & { error: string | null };
  applications: WithCsrf & ApplicationsView;
  authorized: WithCsrf & AuthorizedView;
}

/** The name of a page template. */
export type PageName = keyof PageModels;

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * What `{{x}}` escapes: the five characters that matter in element content and quoted attribute values, as the
 * pages always escaped them (`=` and `` ` ``, which Handlebars also escapes for unquoted attributes, stay as they
 * are, so a `next` URL reads back unchanged from its hidden field; the templates quote every attribute). Non-strings
 * (`SafeString`, null, numbers) keep Handlebars' own handling. Set for the process before the first template is
 * compiled; these pages are the process's only templates.
 */
const handlebarsEscape = Handlebars.Utils.escapeExpression;
(Handlebars.Utils as { escapeExpression: (value: unknown) => string }).escapeExpression = (value) =>
  typeof value === 'string'
    ? value.replace(/[&<>"']/g, (c) => ENTITIES[c])
    : handlebarsEscape(value as string);

const TEMPLATES = join(__dirname, 'templates');

/** Compiles `templates/<name>.hbs` (read once; Handlebars compiles it on first use and keeps it). */
function compile<M>(name: string): Handlebars.TemplateDelegate<M> {
  return Handlebars.compile<M>(readFileSync(join(TEMPLATES, `${name}.hbs`), 'utf8'), {
    knownHelpersOnly: true,
  });
}

const layout = compile<{ title: string; style: string; content: string }>('layout');
const pages: { [P in PageName]: Handlebars.TemplateDelegate<PageModels[P]> } = {
  message: compile('message'),
  login: compile('login'),
  consent: compile('consent'),
  applications: compile('applications'),
  authorized: compile('authorized'),
};

/**
 * The HTML of page `page` with `model` inside the layout (title `title`, the stylesheet `style` verbatim). Every
 * `{{value}}` of the templates is escaped; only the layout inserts the stylesheet and the rendered page raw.
 */
export function renderPage<P extends PageName>(
  page: P,
  title: string,
  style: string,
  model: PageModels[P],
): string {
  const template = pages[page] as Handlebars.TemplateDelegate<PageModels[P]>;
  return layout({ title, style, content: template(model) });
}
