/**
 * Search-only keys, which stay (`secret_rules.ts` is the public face): Algolia's, Typesense's and
 * Meilisearch's keys made for the browser, public by design (DocSearch's docs: "it's safe to
 * commit it"). A key is one by its name (`ALGOLIA_SEARCH_API_KEY`, `searchOnlyApiKey`,
 * `search_only_api_key`, `searchKey`) or as the `apiKey` of a search UI's config beside its
 * `indexName` (DocSearch's and InstantSearch's `{ appId, apiKey, indexName }`). An admin key under
 * such a name is a mistake the name hides; `algoliasearch(id, key)` names neither, and is redacted.
 *
 * @module
 */

/** A search-only key's name and its operator and quote, at the end of the text before a value. */
const SEARCH_KEY_NAME =
  /search[_.-]?(?:only[_.-]?)?(?:api[_.-]?)?key["']?\]?[ \t]{0,16}(?:=>|[:=])[ \t]{0,16}["'`]?$/i;
/** An `apiKey` member's name, its operator and quote, at the end of the text before a value. */
const API_KEY_MEMBER = /(?<![A-Za-z0-9_])["']?apiKey["']?[ \t]{0,16}[:=][ \t]{0,16}["'`]?$/;
/** A search UI's index beside it (`indexName:`, `"indexName":`, `index_name:`). */
const INDEX_NAME = /["']?(?:indexName|index_name)["']?[ \t]{0,16}[:=]/;
/** A search key's shape: 20 to 64 letters and digits (Algolia's: 32 hex digits). */
const KEY_SHAPE = /^[A-Za-z0-9]{20,64}$/;

/**
 * Whether the value from `start` to `end` of `text` is a search-only key (see the module's notes).
 *
 * @example
 * ```ts
 * import { searchOnlyKey } from "./_secret_rules_search_keys.ts";
 * const text = "ALGOLIA_SEARCH_API_KEY=6be0576ff61c053d5f9a3225e2a90f76\n";
 * searchOnlyKey(text, 23, 55); // true
 * ```
 */
export function searchOnlyKey(text: string, start: number, end: number): boolean {
  if (!KEY_SHAPE.test(text.slice(start, end))) return false;
  const before = text.slice(Math.max(0, start - 80), start);
  if (SEARCH_KEY_NAME.test(before)) return true;
  return API_KEY_MEMBER.test(before) &&
    INDEX_NAME.test(text.slice(Math.max(0, start - 300), end + 300));
}
