/**
 * Where the parser is in a page's layout: inside the main content (`<main>`, `<article>`,
 * `role="main"`) or inside boilerplate (navigation, header, footer, aside and their roles).
 * Word counts and near-duplicate hashes read the main content and never the boilerplate.
 * @module
 */
const BOILERPLATE = new Set(["nav", "header", "footer", "aside"]);
const BOILERPLATE_ROLES = new Set(["navigation", "banner", "contentinfo", "complementary", "search"]);
const MAIN = new Set(["main", "article"]);

/** An element that opens a main-content or boilerplate region, and same-named elements inside it. */
interface Region {
  tag: string;
  nested: number;
  main: boolean;
}

/** The open regions; a region closes with the close tag that matches its opening element. */
export class ContentRegions {
  readonly #regions: Region[] = [];
  #main = 0;
  #boiler = 0;

  get inMain(): boolean {
    return this.#main > 0;
  }

  get inBoilerplate(): boolean {
    return this.#boiler > 0;
  }

  /** An opening tag: a new region, or one more same-named element inside an open one. */
  enter(name: string, role: string): void {
    const main = MAIN.has(name) || role === "main";
    if (main || BOILERPLATE.has(name) || BOILERPLATE_ROLES.has(role)) {
      this.#regions.push({ tag: name, nested: 0, main });
      if (main) this.#main++;
      else this.#boiler++;
      return;
    }
    const open = this.#regions.findLast((region) => region.tag === name);
    if (open) open.nested++;
  }

  /** A closing tag: it closes the innermost region of its name unless a same-named element inside is open. */
  leave(name: string): void {
    const i = this.#regions.findLastIndex((region) => region.tag === name);
    const region = this.#regions[i];
    if (!region) return;
    if (region.nested > 0) region.nested--;
    else {
      this.#regions.splice(i, 1);
      if (region.main) this.#main--;
      else this.#boiler--;
    }
  }
}
