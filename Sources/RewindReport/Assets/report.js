// Rewind report: steps through a recording embedded in this page as JSON (docs/cli/report.md).
//
// Recorded values are the app's data and may be hostile, so they reach the page only through
// textContent and attribute values set by the DOM, never through HTML parsing; object keys
// are read as own properties only, so a key such as "__proto__" or "constructor" is a key.
(() => {
  'use strict';

  const $ = (id) => document.getElementById(id);
  const hasOwn = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

  // ---------------------------------------------------------------------------------------
  // Exact numbers

  /**
   * A number a JavaScript number cannot hold or print as the log stores it: an integer past
   * 2^53 (9007199254740993), and every double (-0.0, 0.0, 1e+16). Kept as the log's text,
   * compared and shown as text. One
   * instance a text (`exact`), so `===` compares them, and a Map keys an id by it.
   */
  class Exact {
    constructor(text) {
      this.text = text;
      Object.freeze(this);
    }
  }
  const exacts = new Map();
  function exact(text) {
    let value = exacts.get(text);
    if (value === undefined) {
      value = new Exact(text);
      exacts.set(text, value);
    }
    return value;
  }

  // The page's data writes such a number as {"$exact": "text"} (ReportValues.swift). An app's
  // own object whose one key is "$exact" followed by N NULs comes with one NUL more.
  const EXACT_TAG = /^\$exact\u0000*$/;
  function revive(key, value) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const keys = Object.keys(value);
    if (keys.length !== 1 || !EXACT_TAG.test(keys[0])) return value;
    if (keys[0] === '$exact') return typeof value.$exact === 'string' ? exact(value.$exact) : value;
    const object = {};
    Object.defineProperty(object, keys[0].slice(0, -1), { value: value[keys[0]], writable: true, enumerable: true, configurable: true });
    return object;
  }

  const DATA = (() => {
    const text = document.getElementById('rewind-data').textContent;
    return text.includes('"$exact') ? JSON.parse(text, revive) : JSON.parse(text);
  })();

  /** A scalar as the log writes it: an exact number's text, else JSON. */
  const scalarJSON = (value) => (value instanceof Exact ? value.text : JSON.stringify(value));

  /** A number read from a path's text (`[id=9007199254740993]`), exact when it must be. */
  function numberFromText(text) {
    const number = Number(text);
    return String(number) === text ? number : exact(text);
  }

  // Controls and bidirectional formatting characters in recorded text are shown as their
  // escapes, as on a terminal (TerminalText): U+202E would otherwise turn a name around.
  const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
  const NAMED = { '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r' };
  const visible = (text) =>
    String(text).replace(INVISIBLE, (character) => NAMED[character] ?? '\\u' + character.charCodeAt(0).toString(16).padStart(4, '0'));
  // JSON.stringify leaves U+007F-U+009F and the bidirectional controls raw: the raw view and
  // Copy JSON write them as \u escapes, the same value to a JSON reader.
  const jsonString = (text) => JSON.stringify(text).replace(INVISIBLE, (character) => '\\u' + character.charCodeAt(0).toString(16).padStart(4, '0'));
  const ROW_HEIGHT = 24;
  // Rows drawn beyond the visible ones, so that scrolling a little shows drawn rows. Each
  // row drawn is laid out again at a jump: 6 a side made 890 of a photo page's 1,055 layout
  // objects dirty, 3 (with HISTORY_AROUND 10) 626.
  const OVERSCAN = 3;
  const CHANGES_PER_ROW = 3;
  // States kept: one every CHECKPOINT positions, and the RECENT last asked for.
  const CHECKPOINT = 32;
  const RECENT = 512;
  const CHILDREN_PER_PAGE = 200;
  const LONG_STRING = 400;
  // A key longer than this is cut in the tree (its path, in the history's title, is whole).
  const KEY_LENGTH = 80;
  // ValueSummary.wholeScalarLimit: a UUID in quotes fits.
  const WHOLE_SCALAR = 40;

  // ---------------------------------------------------------------------------------------
  // Values, paths and the log's patches

  const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Exact);

  /** The length a redacted secret (`{"$redacted": N}`) keeps, or null for any other value. */
  function redactedLength(value) {
    if (!isObject(value)) return null;
    const keys = Object.keys(value);
    return keys.length === 1 && keys[0] === '$redacted' && typeof value.$redacted === 'number' ? value.$redacted : null;
  }

  /**
   * Keys in the log's order: by UTF-8 bytes, which is the order of code points. UTF-16 units
   * sort so too once those past the surrogates come before them; the first differing unit
   * decides, without splitting the keys into characters at every comparison.
   */
  function compareKeys(a, b) {
    const length = Math.min(a.length, b.length);
    for (let i = 0; i < length; i++) {
      let x = a.charCodeAt(i);
      let y = b.charCodeAt(i);
      if (x === y) continue;
      if (x >= 0xd800 && y >= 0xd800) {
        x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
        y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
      }
      return x - y;
    }
    return a.length - b.length;
  }

  const sortedKeys = (object) => Object.keys(object).sort(compareKeys);

  // Only "__proto__" needs defining: assigned, it would set the prototype. Defining every
  // key made each state's objects slow ones (a fifth of a step's time on a 100,000-step page).
  function defineKey(object, key, value) {
    if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
    else object[key] = value;
  }

  // A spread defines own keys, "__proto__" too.
  const copyObject = (object) => ({ ...object });

  // A path's component is a key (a string), an index (a number) or, in an array of identified
  // elements, an element by its id ({id: scalar}), which `rewind` writes `[id=12]`.
  const isIDComponent = (component) => component !== null && typeof component === 'object';
  const sameComponent = (a, b) => a === b || (isIDComponent(a) && isIDComponent(b) && a.id === b.id);

  /** The scalar `id` of an object element; undefined when it has none. */
  function scalarID(element) {
    if (!isObject(element) || !hasOwn(element, 'id')) return undefined;
    const id = element.id;
    return id !== null && typeof id === 'object' && !(id instanceof Exact) ? undefined : id;
  }

  // States share every unchanged array with their neighbours, so an array's ids are read once.
  const idIndexes = new WeakMap();

  /**
   * Where each id sits in an array whose elements are all objects with a unique scalar `id`
   * (a Map, whose keys keep 3, "3" and true apart); null for any other array.
   */
  function idIndex(elements) {
    let index = idIndexes.get(elements);
    if (index !== undefined) return index;
    index = new Map();
    for (let i = 0; i < elements.length; i++) {
      const id = scalarID(elements[i]);
      if (id === undefined || index.has(id)) {
        index = null;
        break;
      }
      index.set(id, i);
    }
    idIndexes.set(elements, index);
    return index;
  }

  function child(value, component) {
    if (typeof component === 'number') return Array.isArray(value) && component < value.length ? value[component] : undefined;
    if (isIDComponent(component)) {
      if (!Array.isArray(value)) return undefined;
      const index = idIndex(value);
      if (index === null) return value.find((element) => scalarID(element) === component.id);
      const position = index.get(component.id);
      return position === undefined ? undefined : value[position];
    }
    return isObject(value) && hasOwn(value, component) ? value[component] : undefined;
  }

  function valueAt(value, path) {
    let current = value;
    for (const component of path) {
      current = child(current, component);
      if (current === undefined) return undefined;
    }
    return current;
  }

  /**
   * `value` with `change` applied to what sits at `path`; everything else shared. A container
   * in `owned` was made by this walk and is seen by no one else, so it is changed in place;
   * any other is copied, and the copy joins `owned`. Rebuilding a state 31 patches past its
   * checkpoint copied a 1,000-photo array 31 times; now once.
   */
  function updateAt(value, path, index, change, owned) {
    if (index === path.length) return change(value);
    const component = path[index];
    if (typeof component === 'number') {
      if (!Array.isArray(value)) throw new Error('the patch indexes something that is not an array');
      const inPlace = owned !== null && owned.has(value);
      // In place, an index is kept or dropped, never built: this walk's copy shared the index
      // it had, and after an append (which drops it) a 10,000-item list was indexed again at
      // every next step, 5 of a live page's 30 busy seconds.
      const ids = inPlace ? (idIndexes.get(value) ?? null) : idIndex(value);
      const old = value[component];
      const copy = inPlace ? value : value.slice();
      copy[component] = updateAt(old, path, index + 1, change, owned);
      // An element changed in place keeps its id: the copy's ids sit where they did, and it
      // shares their index (one index for a run of states, not one a state: 1,000 photos
      // took 0.5 ms to index at every step).
      const id = scalarID(copy[component]);
      const sameID = ids !== null && id !== undefined && id === scalarID(old);
      if (inPlace) {
        if (!sameID) idIndexes.delete(copy);
      } else {
        if (sameID) idIndexes.set(copy, ids);
        owned?.add(copy);
      }
      return copy;
    }
    if (!isObject(value)) throw new Error('the patch names a key of something that is not an object');
    const inPlace = owned !== null && owned.has(value);
    const copy = inPlace ? value : copyObject(value);
    if (!inPlace) owned?.add(copy);
    defineKey(copy, component, updateAt(hasOwn(value, component) ? value[component] : undefined, path, index + 1, change, owned));
    return copy;
  }

  /**
   * The log's operations: set, remove a key, replace a run of array elements. `owned` (a Set,
   * or null to copy every container touched) holds the containers that may change in place.
   */
  function applyPatch(state, operations, owned = null) {
    let result = state;
    for (const operation of operations) {
      const [kind, path] = operation;
      if (kind === 's') {
        result = updateAt(result, path, 0, () => operation[2], owned);
      } else if (kind === 'r') {
        result = updateAt(
          result,
          path.slice(0, -1),
          0,
          (parent) => {
            const inPlace = owned !== null && owned.has(parent);
            const copy = inPlace ? parent : copyObject(parent);
            if (!inPlace) owned?.add(copy);
            delete copy[path[path.length - 1]];
            return copy;
          },
          owned
        );
      } else if (kind === 'p') {
        const [, , start, end, values] = operation;
        result = updateAt(
          result,
          path,
          0,
          (array) => {
            const inPlace = owned !== null && owned.has(array);
            const copy = inPlace ? array : array.slice();
            if (inPlace) idIndexes.delete(copy);
            else owned?.add(copy);
            copy.splice(start, end - start, ...values);
            return copy;
          },
          owned
        );
      } else {
        throw new Error('an unknown patch operation');
      }
    }
    return result;
  }

  function deepEqual(a, b) {
    if (a === b) return true;
    if (Array.isArray(a)) {
      if (!Array.isArray(b) || a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
      return true;
    }
    if (isObject(a)) {
      if (!isObject(b)) return false;
      const keys = Object.keys(a);
      if (keys.length !== Object.keys(b).length) return false;
      for (const key of keys) if (!hasOwn(b, key) || !deepEqual(a[key], b[key])) return false;
      return true;
    }
    return false;
  }

  const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

  /** A path as the command line writes it: `photos[3].title`, `photos[id="a"]`, `["odd key"]`, `.` for the root. */
  function pathText(path) {
    if (path.length === 0) return '.';
    let text = '';
    for (const component of path) {
      if (typeof component === 'number') text += `[${component}]`;
      else if (isIDComponent(component)) text += `[id=${scalarJSON(component.id)}]`;
      else if (IDENTIFIER.test(component)) text += (text ? '.' : '') + component;
      else text += `[${JSON.stringify(component)}]`;
    }
    return text;
  }

  /** Reads a path back from its text; null when it is not one. */
  function parsePath(text) {
    if (text === '.' || text === '') return [];
    const path = [];
    let i = 0;
    while (i < text.length) {
      if (text[i] === '.') {
        if (path.length === 0) return null;
        i += 1;
      }
      if (text.startsWith('[id=', i)) {
        const id = idAt(text, i + 4);
        if (id === null) return null;
        path.push({ id: id.value });
        i = id.end + 1;
      } else if (text[i] === '[') {
        const close = text[i + 1] === '"' ? closingQuote(text, i + 1) : text.indexOf(']', i);
        if (close < 0) return null;
        const inside = text.slice(i + 1, text[i + 1] === '"' ? close + 1 : close);
        try {
          const component = JSON.parse(inside);
          if (typeof component !== 'number' && typeof component !== 'string') return null;
          path.push(component);
        } catch (error) {
          return null;
        }
        i = (text[i + 1] === '"' ? close + 1 : close) + 1;
        if (text[i - 1] !== ']') return null;
      } else {
        const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i));
        if (!match) return null;
        path.push(match[0]);
        i += match[0].length;
      }
    }
    return path;
  }

  /** The scalar written at `start` up to its `]`, as {value, end: the index of the `]`}; null when it is not one. */
  function idAt(text, start) {
    let end;
    if (text[start] === '"') {
      const quote = closingQuote(text, start);
      if (quote < 0) return null;
      end = quote + 1;
    } else {
      end = text.indexOf(']', start);
      if (end < 0) return null;
    }
    try {
      const source = text.slice(start, end);
      const value = JSON.parse(source);
      if (typeof value === 'number') return { value: numberFromText(source), end };
      return value !== null && typeof value === 'object' ? null : { value, end };
    } catch (error) {
      return null;
    }
  }

  /** The index of the quote that closes the JSON string starting at `start`, or -1. */
  function closingQuote(text, start) {
    for (let i = start + 1; i < text.length; i++) {
      if (text[i] === '\\') i += 1;
      else if (text[i] === '"') return text[i + 1] === ']' ? i : -1;
    }
    return -1;
  }

  const samePath = (a, b) => a.length === b.length && a.every((component, i) => sameComponent(component, b[i]));
  const isPrefix = (prefix, path) => prefix.length <= path.length && prefix.every((component, i) => sameComponent(component, path[i]));

  // ---------------------------------------------------------------------------------------
  // Diffs, as `rewind diff` computes them

  /**
   * Leaf changes turning `old` into `now`, in document order: {path, kind, old, now}. Arrays
   * of identified elements are matched by id, as JSONDiff does: their elements are named
   * `[id=…]`, a deleted one is one removal and a reordering the fewest moves.
   */
  function diff(old, now, path = [], changes = []) {
    if (old === now) return changes;
    if (redactedLength(old) !== null || redactedLength(now) !== null) {
      if (!deepEqual(old, now)) changes.push({ path, kind: 'changed', old, now });
      return changes;
    }
    if (isObject(old) && isObject(now)) {
      const oldKeys = sortedKeys(old);
      const newKeys = sortedKeys(now);
      let i = 0;
      let j = 0;
      while (i < oldKeys.length || j < newKeys.length) {
        const order = i === oldKeys.length ? 1 : j === newKeys.length ? -1 : compareKeys(oldKeys[i], newKeys[j]);
        if (order < 0) {
          changes.push({ path: path.concat([oldKeys[i]]), kind: 'removed', old: old[oldKeys[i]] });
          i += 1;
        } else if (order > 0) {
          changes.push({ path: path.concat([newKeys[j]]), kind: 'added', now: now[newKeys[j]] });
          j += 1;
        } else {
          diff(old[oldKeys[i]], now[newKeys[j]], path.concat([newKeys[j]]), changes);
          i += 1;
          j += 1;
        }
      }
      return changes;
    }
    if (Array.isArray(old) && Array.isArray(now)) {
      const oldIDs = idIndex(old);
      if (oldIDs !== null && sameIDsInPlace(old, now)) {
        // Nothing added, removed or moved: only the elements changed in place are diffed,
        // without indexing the new array's ids (a 1,000-photo step spent 4 ms there).
        for (let i = 0; i < old.length; i++) if (old[i] !== now[i]) diff(old[i], now[i], path.concat([{ id: old[i].id }]), changes);
        return changes;
      }
      if (oldIDs !== null && appendedWithNewIDs(old, now, oldIDs)) {
        // Grown at its end (a todo's `add`): as diffByID would say, without indexing the new
        // array or looking for moves (2.5 of a live page's 30 busy seconds on a 10,000-item list).
        for (let i = 0; i < old.length; i++) if (old[i] !== now[i]) diff(old[i], now[i], path.concat([{ id: old[i].id }]), changes);
        for (let i = old.length; i < now.length; i++) changes.push({ path: path.concat([{ id: now[i].id }]), kind: 'added', now: now[i] });
        return changes;
      }
      const newIDs = oldIDs === null ? null : idIndex(now);
      if (newIDs !== null) return diffByID(old, now, oldIDs, newIDs, path, changes);
      const shared = Math.min(old.length, now.length);
      for (let i = 0; i < shared; i++) diff(old[i], now[i], path.concat([i]), changes);
      for (let i = shared; i < old.length; i++) changes.push({ path: path.concat([i]), kind: 'removed', old: old[i] });
      for (let i = shared; i < now.length; i++) changes.push({ path: path.concat([i]), kind: 'added', now: now[i] });
      return changes;
    }
    if (!deepEqual(old, now)) changes.push({ path, kind: 'changed', old, now });
    return changes;
  }

  /**
   * Whether `now` holds the ids of `old`, an array of identified elements, at the same
   * indexes: the common step, which changes elements in place. Where an element is not the
   * very same, its id is compared.
   */
  function sameIDsInPlace(old, now) {
    return old.length === now.length && sameIDsBefore(old.length, old, now);
  }

  /** Whether the first `count` elements of `now` hold the ids of `old`'s, in order. */
  function sameIDsBefore(count, old, now) {
    for (let i = 0; i < count; i++) if (old[i] !== now[i] && scalarID(now[i]) !== old[i].id) return false;
    return true;
  }

  /**
   * Whether `now` is `old` (identified, `oldIDs` its index) with its elements changed in place
   * and identified elements after them whose ids are new and unique: nothing removed or moved.
   */
  function appendedWithNewIDs(old, now, oldIDs) {
    if (now.length <= old.length || !sameIDsBefore(old.length, old, now)) return false;
    const added = new Set();
    for (let i = old.length; i < now.length; i++) {
      const id = scalarID(now[i]);
      if (id === undefined || oldIDs.has(id) || added.has(id)) return false;
      added.add(id);
    }
    return true;
  }

  // Removals are interleaved with the rest by index, so the list reads top to bottom.
  function diffByID(old, now, oldIDs, newIDs, path, changes) {
    const moved = movedIDs(now, oldIDs);
    const removed = [];
    for (let i = 0; i < old.length; i++) if (!newIDs.has(old[i].id)) removed.push(i);
    let next = 0;
    const emitRemovals = (upTo) => {
      while (next < removed.length && removed[next] <= upTo) {
        const element = old[removed[next]];
        changes.push({ path: path.concat([{ id: element.id }]), kind: 'removed', old: element });
        next += 1;
      }
    };
    for (let j = 0; j < now.length; j++) {
      emitRemovals(j);
      const id = now[j].id;
      const i = oldIDs.get(id);
      if (i === undefined) {
        changes.push({ path: path.concat([{ id }]), kind: 'added', now: now[j] });
        continue;
      }
      if (moved.has(id)) changes.push({ path: path.concat([{ id }]), kind: 'moved', from: i, to: j });
      if (old[i] !== now[j]) diff(old[i], now[j], path.concat([{ id }]), changes);
    }
    emitRemovals(Infinity);
    return changes;
  }

  /**
   * The ids that moved, as JSONDiff names them: of the elements in both arrays, those off one
   * longest run of increasing old indices, preferring (on equal length) the run whose elements
   * travelled least and, on a tie, the later one. Nothing moved when old indices only grow,
   * the common case, checked first.
   */
  function movedIDs(now, oldIDs) {
    const pairs = [];
    let ordered = true;
    for (let j = 0; j < now.length; j++) {
      const i = oldIDs.get(now[j].id);
      if (i === undefined) continue;
      if (pairs.length > 0 && pairs[pairs.length - 1].i > i) ordered = false;
      pairs.push({ i, j, id: now[j].id });
    }
    const moved = new Set();
    if (ordered) return moved;
    // A Fenwick tree over old indices keeps the best run ending at or below each.
    const better = (a, b) => a.length > b.length || (a.length === b.length && a.weight > b.weight);
    const none = { length: 0, weight: 0, end: -1 };
    const tree = new Array(oldIDs.size + 2).fill(none);
    const previous = new Array(pairs.length).fill(-1);
    let best = none;
    pairs.forEach((pair, position) => {
      let before = none;
      for (let node = pair.i; node > 0; node -= node & -node) if (better(tree[node], before)) before = tree[node];
      const run = { length: before.length + 1, weight: before.weight - Math.abs(pair.i - pair.j), end: position };
      previous[position] = before.end;
      if (!better(best, run)) best = run;
      for (let node = pair.i + 1; node < tree.length; node += node & -node) if (better(run, tree[node])) tree[node] = run;
    });
    const staying = new Set();
    for (let position = best.end; position >= 0; position = previous[position]) staying.add(position);
    pairs.forEach((pair, position) => {
      if (!staying.has(position)) moved.add(pair.id);
    });
    return moved;
  }

  // ---------------------------------------------------------------------------------------
  // Values as short text, as the command line shows them

  function compact(value) {
    const length = redactedLength(value);
    if (length !== null) return `<redacted ${length}>`;
    if (Array.isArray(value)) return '[' + value.map(compact).join(',') + ']';
    if (isObject(value)) return '{' + sortedKeys(value).map((key) => JSON.stringify(key) + ':' + compact(value[key])).join(',') + '}';
    if (value === undefined) return '(absent)';
    return scalarJSON(value);
  }

  // A character in a summary's counts is a Unicode scalar (a code point), as on the command
  // line (ValueSummary): UTF-16 units counted an emoji as two where Swift's Character counted
  // `e` + U+0301 as one, and the two cut such text at different places.
  const isLowSurrogate = (unit) => unit >= 0xdc00 && unit <= 0xdfff;
  const isHighSurrogate = (unit) => unit >= 0xd800 && unit <= 0xdbff;

  /** The code points of `text` before UTF-16 index `end`. */
  function scalarCount(text, end = text.length) {
    let count = 0;
    for (let i = 0; i < end; i++) {
      if (!(isLowSurrogate(text.charCodeAt(i)) && i > 0 && isHighSurrogate(text.charCodeAt(i - 1)))) count += 1;
    }
    return count;
  }

  /** The UTF-16 index `count` code points after `index` (or the end). */
  function advance(text, index, count) {
    let i = index;
    for (let n = 0; n < count && i < text.length; n++) {
      i += isHighSurrogate(text.charCodeAt(i)) && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1)) ? 2 : 1;
    }
    return i;
  }

  /** Whether `text` holds at most `limit` code points. */
  const fits = (text, limit) => text.length <= limit || scalarCount(text) <= limit;

  /** As ValueSummary.describe: a scalar stays whole up to WHOLE_SCALAR characters, so an id is never cut. */
  function describe(value, limit = 40) {
    const length = redactedLength(value);
    if (length !== null) return `<redacted ${length}>`;
    let text;
    if (Array.isArray(value) && value.length === 0) text = '[]';
    else if (isObject(value) && Object.keys(value).length === 0) text = '{}';
    else text = compact(value);
    if (Array.isArray(value)) return fits(text, limit) ? text : value.length === 1 ? '[1 item]' : `[${value.length} items]`;
    if (isObject(value)) {
      const count = Object.keys(value).length;
      return fits(text, limit) ? text : count === 1 ? '{1 field}' : `{${count} fields}`;
    }
    const scalarLimit = Math.max(limit, WHOLE_SCALAR);
    return fits(text, scalarLimit) ? text : text.slice(0, advance(text, 0, scalarLimit - 1)) + '…';
  }

  /**
   * Two long strings that differ, each cut around where they start to differ rather than to
   * its head (a 1 MB string and the same plus one character had two identical heads):
   * `"…the end" → "…the end!" (from character 1,000,001)`. Null when either is short or not a
   * string.
   */
  function differingStrings(old, now, limit) {
    // Only where the summaries read the same: summaries that differ already show it.
    if (typeof old !== 'string' || typeof now !== 'string' || old === now || describe(old, limit) !== describe(now, limit)) return null;
    let unit = 0;
    while (unit < old.length && unit < now.length && old.charCodeAt(unit) === now.charCodeAt(unit)) unit += 1;
    // Not inside a surrogate pair.
    if (unit > 0 && isHighSurrogate(old.charCodeAt(unit - 1))) unit -= 1;
    // Counted in code points, as the command line counts; the head up to `unit` is the same
    // in both strings, so a position in it is too.
    const first = scalarCount(old, unit);
    const context = 8;
    // From the start when the first difference shows there with its context after it.
    const from = first + context <= limit - 4 ? 0 : first - context;
    const start = advance(old, 0, from);
    const cut = (text) => {
      const end = advance(text, start, limit - 4);
      return (from > 0 ? '…' : '') + JSON.stringify(text.slice(start, end)).slice(1, -1) + (end < text.length ? '…' : '');
    };
    const where = from === 0 ? '' : ` (from character ${(first + 1).toLocaleString('en-US')})`;
    return `"${cut(old)}" → "${cut(now)}"${where}`;
  }

  function changeText(change, limit) {
    const path = pathText(change.path);
    const strings = change.kind === 'changed' ? differingStrings(change.old, change.now, limit) : null;
    if (strings !== null) return { sign: '~', text: `${path}: ${strings}` };
    if (change.kind === 'added') return { sign: '+', text: `${path}: ${describe(change.now, limit)}` };
    if (change.kind === 'removed') return { sign: '-', text: `${path}: ${describe(change.old, limit)}` };
    if (change.kind === 'moved') return { sign: '↕', text: `${path}: moved [${change.from}] → [${change.to}]` };
    return { sign: '~', text: `${path}: ${describe(change.old, limit)} → ${describe(change.now, limit)}` };
  }

  function summaryText(change) {
    const path = pathText(change.path);
    const strings = change.kind === 'changed' ? differingStrings(change.old, change.now, 20) : null;
    if (strings !== null) return `${path}: ${strings}`;
    if (change.kind === 'added') return `${path} + ${describe(change.now, 24)}`;
    if (change.kind === 'removed') return `${path} − ${describe(change.old, 24)}`;
    if (change.kind === 'moved') return `${path} ↕ [${change.from}] → [${change.to}]`;
    return `${path}: ${describe(change.old, 20)} → ${describe(change.now, 24)}`;
  }

  // ---------------------------------------------------------------------------------------
  // Sessions: rows as stored, states rebuilt on demand from the nearest one kept

  class Session {
    constructor(data) {
      this.data = data;
      this.number = data.number;
      this.rows = [];
      this.positionOfStep = new Map();
      this.baseStep = data.first - 1;
      // A session's initial state may be null itself: `hasBase` says whether there is one.
      this.base = data.hasBase ? data.base : undefined;
      this.checkpoints = new Map();
      this.recent = new Map();
      this.changes = [];
      this.comparison = data.comparison || null;
      /** The last step the rows go to: a live page asks for the steps after it. */
      this.through = data.through ?? data.last;
      this.addRows(data);
    }

    /**
     * Adds `data`'s rows after those held. Rows name their action ([name, label or null,
     * action]) and patch by number, in `data`'s own tables: a session repeats them. Shared
     * objects are safe: no value here is ever changed.
     */
    addRows(data) {
      const actions = data.actions.map(([name, label, action]) => ({ name: data.names[name], label: label ?? data.names[name], action }));
      const start = this.rows.length;
      for (const row of data.rows) {
        const action = actions[row[3]];
        const index = this.rows.length;
        this.rows.push({
          index,
          step: row[0],
          time: row[1],
          origin: data.origins[row[2]],
          name: action.name,
          label: action.label,
          action: action.action,
          cause: row[4],
          keyframe: row[5] === 0,
          payload: row[5] === 0 ? row[6] : data.patches[row[6]],
          effects: [],
        });
        this.positionOfStep.set(row[0], index + 1);
      }
      for (let index = start; index < this.rows.length; index++) {
        const cause = this.positionOfStep.get(this.rows[index].cause);
        if (cause !== undefined) this.rows[cause - 1].effects.push(this.rows[index].step);
      }
    }

    /**
     * A live session's steps after `through` (docs/live.md): their rows appended, the header's
     * figures taken from `data`. The states rebuilt so far stay: a step's state never changes.
     * What is new, for the page to draw only that: the first new position's index, the gaps
     * and whether an origin is new.
     */
    append(data) {
      const known = new Set(this.data.gaps.map((gap) => JSON.stringify(gap)));
      const gaps = data.gaps.filter((gap) => !known.has(JSON.stringify(gap)));
      const origins = data.origins.filter((origin) => !this.data.origins.includes(origin));
      this.data = {
        ...this.data,
        lastStep: data.lastStep,
        events: data.events,
        duration: data.duration,
        last: data.last,
        through: data.through,
        gaps: this.data.gaps.concat(gaps),
        origins: this.data.origins.concat(origins),
        name: data.name,
        report: data.report,
      };
      const from = this.rows.length;
      this.addRows(data);
      this.through = data.through;
      return { from, gaps, newOrigins: origins.length > 0 };
    }

    get label() {
      return `#${this.number}` + (this.data.name === undefined ? '' : ` ${this.data.name}`);
    }

    /** Positions run 0 (the state before the first row) to rows.length. */
    get lastPosition() {
      return this.rows.length;
    }

    stepAt(position) {
      return position === 0 ? this.baseStep : this.rows[position - 1].step;
    }

    /** The position of `step`, or of the first recorded step after it. */
    position(step) {
      if (step <= this.baseStep) return 0;
      const exact = this.positionOfStep.get(step);
      if (exact !== undefined) return exact;
      const after = this.rows.find((row) => row.step > step);
      return after ? after.index + 1 : this.lastPosition;
    }

    /**
     * The state at a position; undefined when it cannot be rebuilt (before a first keyframe).
     * Rebuilt from the nearest state kept before it: one every CHECKPOINT positions, and the
     * last RECENT asked for. Keeping every state rebuilt held 53-75 MB of heap after 200 jumps
     * over a 100,000-step page; this holds 24 MB.
     */
    state(position) {
      if (position === 0) return this.base;
      const recent = this.recent.get(position);
      if (recent !== undefined || this.recent.has(position)) {
        this.recent.delete(position);
        this.recent.set(position, recent);
        return recent;
      }
      if (this.checkpoints.has(position)) return this.checkpoints.get(position);
      let start = position;
      while (start > 0 && !this.isKept(start) && !this.rows[start - 1].keyframe) start -= 1;
      let state = this.isKept(start) ? this.kept(start) : start === 0 ? this.base : this.rows[start - 1].payload;
      // The states between the kept one and this one are seen by no one: each patch changes
      // in place what an earlier patch of this walk copied. A state kept is no longer owned.
      const owned = new Set();
      for (let p = start + 1; p <= position; p++) {
        state = this.next(state, p, owned);
        if (p % CHECKPOINT === 0) {
          this.checkpoints.set(p, state);
          owned.clear();
        }
      }
      this.recent.set(position, state);
      if (this.recent.size > RECENT) this.recent.delete(this.recent.keys().next().value);
      return state;
    }

    isKept(position) {
      return position === 0 || this.recent.has(position) || this.checkpoints.has(position);
    }

    kept(position) {
      return position === 0 ? this.base : this.recent.has(position) ? this.recent.get(position) : this.checkpoints.get(position);
    }

    /** The state at `position` from the state before it; `owned` as applyPatch takes it. */
    next(before, position, owned = null) {
      const row = this.rows[position - 1];
      if (row.keyframe) {
        owned?.clear();
        return row.payload;
      }
      if (before === undefined) return undefined;
      try {
        return applyPatch(before, row.payload, owned);
      } catch (error) {
        return undefined;
      }
    }

    /**
     * Calls `visit(position, state)` at every position in order, each state rebuilt once from
     * the one before: a walk over the whole session, where asking state() for each would
     * walk back to a kept state every time.
     */
    forEachState(visit) {
      let state = this.base;
      visit(0, state);
      for (let position = 1; position <= this.lastPosition; position++) {
        state = this.next(state, position);
        if (position % CHECKPOINT === 0) this.checkpoints.set(position, state);
        visit(position, state);
      }
    }

    /** Whether the steps just before a position's row are missing (not kept, or a gap): its
     * state is then shown whole, not as changes from an older one. */
    missingBefore(position) {
      if (position === 0) return false;
      return this.stepAt(position - 1) !== this.rows[position - 1].step - 1 || this.state(position - 1) === undefined;
    }

    /** The changes a row made, kept: the timeline asks for each row in view at every step. */
    changesAt(position) {
      const kept = this.changes[position];
      if (kept !== undefined) return kept;
      let changes = [];
      if (position > 0 && !this.missingBefore(position)) {
        const before = this.state(position - 1);
        const after = this.state(position);
        if (before !== undefined && after !== undefined) changes = diff(before, after);
      }
      this.changes[position] = changes;
      return changes;
    }
  }

  const sessions = DATA.sessions.map((data) => new Session(data));

  // ---------------------------------------------------------------------------------------
  // The view: what is selected, kept in the URL fragment

  const view = {
    /** What the search looks for in the state's keys and values. */
    search: '',
    /** Whether the state is shown as raw JSON. */
    raw: false,
    /** Another session's step to diff against: {session, step}. */
    against: null,
    session: null,
    /** The session a link asked for when this page does not hold it. */
    missing: null,
    position: 0,
    pin: null,
    field: null,
    action: '',
    origin: '',
  };

  function readFragment() {
    const params = new URLSearchParams(location.hash.replace(/^#/, ''));
    const number = Number(params.get('session') ?? DATA.open?.session ?? sessions[0]?.number);
    view.session = sessions.find((session) => session.number === number) ?? sessions[0] ?? null;
    // A link to a session this page does not hold opens the first, and says so.
    view.missing = view.session && view.session.number !== number ? params.get('session') : null;
    if (!view.session) return;
    const step = params.get('step') ?? DATA.open?.step;
    view.position = step === undefined || step === null || step === '' || Number.isNaN(Number(step)) ? 0 : view.session.position(Number(step));
    const pin = params.get('pin');
    view.pin = pin === null || pin === '' || Number.isNaN(Number(pin)) ? null : view.session.position(Number(pin));
    const field = params.get('field');
    view.field = field === null ? null : parsePath(field);
    view.action = params.get('action') ?? '';
    view.origin = params.get('origin') ?? '';
    view.search = params.get('find') ?? '';
    // `against=3:8`: the diff is from session 3's step 8 to this step.
    const against = /^(\d+):(-?\d+)$/.exec(params.get('against') ?? '');
    const other = against ? sessions.find((session) => session.number === Number(against[1])) : undefined;
    view.against = other ? { session: other, step: Number(against[2]) } : null;
  }

  function writeFragment() {
    if (!view.session) return;
    const params = new URLSearchParams();
    params.set('session', String(view.session.number));
    params.set('step', String(view.session.stepAt(view.position)));
    if (view.pin !== null) params.set('pin', String(view.session.stepAt(view.pin)));
    if (view.field !== null) params.set('field', pathText(view.field));
    if (view.action) params.set('action', view.action);
    if (view.origin) params.set('origin', view.origin);
    if (view.search) params.set('find', view.search);
    if (view.against) params.set('against', `${view.against.session.number}:${view.against.step}`);
    const hash = '#' + params.toString();
    if (location.hash !== hash) history.replaceState(null, '', hash);
  }

  // ---------------------------------------------------------------------------------------
  // Small DOM helpers: text only

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = visible(text);
    return node;
  }

  function link(text, onClick) {
    const node = element('a', null, text);
    node.href = '#';
    node.addEventListener('click', (event) => {
      event.preventDefault();
      onClick();
    });
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  // ---------------------------------------------------------------------------------------
  // Filters

  /**
   * Whether `text` matches the glob `pattern` (`*` any run, `?` one character), both already
   * lowercased. Greedy, going back to the last `*` only: at most pattern × text steps, where
   * the regular expression it replaced backtracked exponentially (`*a*a*a*a*a*a*a*a*a*a*b` held
   * the page 15 s on 40-character names).
   */
  function globMatches(pattern, text) {
    let i = 0;
    let j = 0;
    let star = -1;
    let resume = 0;
    while (j < text.length) {
      if (i < pattern.length && (pattern[i] === '?' || pattern[i] === text[j])) {
        i += 1;
        j += 1;
      } else if (i < pattern.length && pattern[i] === '*') {
        star = i;
        i += 1;
        resume = j;
      } else if (star >= 0) {
        i = star + 1;
        resume += 1;
        j = resume;
      } else {
        return false;
      }
    }
    while (i < pattern.length && pattern[i] === '*') i += 1;
    return i === pattern.length;
  }

  let matching = null;

  function computeMatching() {
    const session = view.session;
    if (!view.action && !view.origin) {
      matching = null;
      return;
    }
    matching = new Set();
    addMatching(session.rows, 0);
  }

  /** Adds to `matching` the positions of `rows` from index `from` that pass the filter. */
  function addMatching(rows, from) {
    // Case does not matter: `didtap*` finds `didTapLogin`.
    const pattern = Array.from(view.action.toLowerCase());
    const plain = view.action.toLowerCase();
    for (let index = from; index < rows.length; index++) {
      const row = rows[index];
      const name = row.name.toLowerCase();
      const nameMatches = !view.action || globMatches(pattern, Array.from(name)) || name.includes(plain);
      if (nameMatches && (!view.origin || row.origin === view.origin)) matching.add(row.index + 1);
    }
  }

  const isVisible = (position) => position === 0 || matching === null || matching.has(position);

  // ---------------------------------------------------------------------------------------
  // Rendering

  function renderSessions() {
    const nav = $('sessions');
    clear(nav);
    if (view.missing !== null) nav.append(element('span', 'notice', `no session #${view.missing} here: showing #${view.session.number}`));
    for (const session of sessions) {
      const tab = element('button', 'session-tab');
      tab.type = 'button';
      tab.setAttribute('role', 'tab');
      tab.setAttribute('aria-selected', String(session === view.session));
      tab.append(element('span', 'name', session.label));
      const gaps = session.data.gaps.length;
      const meta = [
        session.data.flow,
        `${session.data.lastStep} steps`,
        session.data.started,
        session.data.duration,
      ];
      // The front a log's retention trimmed is no gap: the tab says what is not kept.
      const notKept = session.data.gaps.find((gap) => gap[2] === 'not kept' && gap[0] === 1);
      if (notKept) meta.push(`steps 1–${notKept[1].toLocaleString('en-US')} not kept`);
      const lost = gaps - (notKept ? 1 : 0);
      if (lost) meta.push(lost === 1 ? '1 gap' : `${lost} gaps`);
      if (session.data.first > (notKept ? notKept[1] + 1 : 1) || session.data.last < session.data.lastStep) meta.push(`shown ${session.data.first}–${session.data.last}`);
      if (session.data.report !== undefined) meta.push(`reported ${session.data.report}`);
      const line = element('span', 'meta', meta.join(' · '));
      if (session.comparison) line.append(' · ', element('span', 'failed', 'replay failed'));
      tab.append(line);
      tab.addEventListener('click', () => {
        if (view.session === session) return;
        view.session = session;
        view.missing = null;
        view.position = session.comparison ? session.position(session.comparison.step) : 0;
        view.pin = null;
        view.field = null;
        update({ sessionChanged: true });
      });
      nav.append(tab);
      if (session === view.session) requestAnimationFrame(() => tab.scrollIntoView({ block: 'nearest', inline: 'nearest' }));
    }
  }

  function renderOrigins() {
    const select = $('filter-origin');
    while (select.options.length > 1) select.remove(1);
    for (const origin of view.session.data.origins) {
      const option = element('option', null, origin);
      option.value = origin;
      select.append(option);
    }
    select.value = view.session.data.origins.includes(view.origin) ? view.origin : '';
    $('filter-action').value = view.action;
    $('filter-action').placeholder = actionPlaceholder(view.session.rows);
  }

  /**
   * A glob for the action filter to suggest, from the session's own names rather than one
   * app's: the commonest first word of its actions (`didTapLogin` → `did*`), the first seen on
   * a tie; `name*` for a session without actions.
   */
  function actionPlaceholder(rows) {
    const names = new Map();
    for (const row of rows) names.set(row.name, (names.get(row.name) ?? 0) + 1);
    const counts = new Map();
    for (const [name, count] of names) {
      const word = /^.[^A-Z_]*/u.exec(name)?.[0];
      if (word) counts.set(word, (counts.get(word) ?? 0) + count);
    }
    let best = 'name', most = 0;
    for (const [word, count] of counts) {
      if (count > most) [best, most] = [word, count];
    }
    return best + '*';
  }

  /** A row's time since the session started: `+12.345s`. */
  const timeText = (row) => (row.time === null ? '' : `+${(row.time / 1000).toFixed(3)}s`);

  /** The timeline's entries: the state before the first row, rows that pass the filter, gaps. */
  let entries = [];
  /** How many steps the filter keeps, as the filter bar says it. */
  let matchCount = '';

  /** The index in `entries` of each position's row; -1 for a row the filter hides. */
  let entryOfPosition = new Int32Array(0);

  function buildEntries() {
    const session = view.session;
    entries = [];
    entryOfPosition = new Int32Array(session.lastPosition + 1).fill(-1);
    const gaps = session.data.gaps.slice().sort((a, b) => a[0] - b[0]);
    let gap = 0;
    // Steps missing up to the state the timeline starts from (a trimmed front) come first.
    while (gap < gaps.length && gaps[gap][1] <= session.baseStep) entries.push({ kind: 'gap', gap: gaps[gap++] });
    entryOfPosition[0] = entries.length;
    entries.push({ kind: 'initial', position: 0 });
    pushEntries(session, 0, gaps.slice(gap));
    timeWidth = 7;
    setWidths(session, session.rows);
  }

  /**
   * Adds the entries of `session`'s rows from index `from`, with `gaps` (sorted) where their
   * steps fall, and those after the last row at the end.
   */
  function pushEntries(session, from, gaps) {
    let gap = 0;
    for (let index = from; index < session.rows.length; index++) {
      const row = session.rows[index];
      while (gap < gaps.length && gaps[gap][0] < row.step) entries.push({ kind: 'gap', gap: gaps[gap++] });
      if (!isVisible(row.index + 1)) continue;
      entryOfPosition[row.index + 1] = entries.length;
      entries.push({ kind: 'row', position: row.index + 1, row });
    }
    while (gap < gaps.length) entries.push({ kind: 'gap', gap: gaps[gap++] });
    matchCount = matching === null ? '' : `${matching.size} of ${session.rows.length} steps match`;
  }

  /** The widest time drawn so far, in characters: a live session's new rows only widen it. */
  let timeWidth = 7;

  /**
   * Columns as wide as this session's longest step, time and origin (an origin up to 24
   * characters): fixed widths cut `photos/thumbnail` and ran times past 10,000 s over. `rows`
   * are those whose times are new.
   */
  function setWidths(session, rows) {
    const longest = (texts, floor) => texts.reduce((most, text) => Math.max(most, text.length), floor);
    const timeline = $('timeline').style;
    timeline.setProperty('--step-width', `${longest([String(session.data.lastStep)], 4) + 2}ch`);
    // The widest time is the latest or, before the start, the earliest: two texts, not 100,000.
    let latest = null, earliest = null;
    for (const row of rows) {
      if (row.time === null) continue;
      if (latest === null || row.time > latest.time) latest = row;
      if (earliest === null || row.time < earliest.time) earliest = row;
    }
    timeWidth = longest([latest, earliest].filter(Boolean).map(timeText), timeWidth);
    timeline.setProperty('--time-width', `${timeWidth + 1}ch`);
    timeline.setProperty('--origin-width', `${Math.min(24, longest(session.data.origins, 4)) + 1}ch`);
  }

  /**
   * A live session grew (`added`, from ``Session.append``): the filter and the timeline take
   * its new rows alone, the rows in view are filled again (an old row may list a new one
   * among its effects), and the panes are drawn again only when the view follows the app to
   * its newest step. A step costs the page the same at 100 steps as at 100,000.
   */
  function appended(session, added, following) {
    if (view.session !== session) {
      renderSessions();
      return;
    }
    if (matching !== null) addMatching(session.rows, added.from);
    if (entryOfPosition.length < session.lastPosition + 1) {
      // Grown by doubling: copying it at every load would cost a step what the session holds.
      const grown = new Int32Array(Math.max(2 * entryOfPosition.length, session.lastPosition + 1)).fill(-1);
      grown.set(entryOfPosition);
      entryOfPosition = grown;
    }
    pushEntries(session, added.from, added.gaps.slice().sort((a, b) => a[0] - b[0]));
    setWidths(session, session.rows.slice(added.from));
    renderSessions();
    if (added.newOrigins) renderOrigins();
    renderedRange = null;
    // A field's history is taken over the whole session: the one shown is taken again.
    if (view.field !== null) historyView = null;
    if (following) {
      view.position = session.lastPosition;
      update({ scroll: true });
    } else {
      renderControls();
      renderTimeline(true);
    }
  }

  const rowsBox = element('div', 'rows');
  $('timeline').append(rowsBox);
  let renderedRange = null;
  // The timeline's scroll offset and height, kept here rather than read from the element
  // while a step renders: each read would force a layout of everything changed so far.
  let timelineTop = 0;
  let timelineHeight = 0;

  function measureTimeline() {
    timelineTop = $('timeline').scrollTop;
    timelineHeight = $('timeline').clientHeight;
  }

  /**
   * The rows drawn, top to bottom: the k-th shows entry first + k. A row is filled again only
   * when the entry it shows changes, so stepping within the rows in view only moves the marks
   * (a step to the next one lays out about 200 boxes in 2 ms, a jump about 630 in 6), and it
   * is filled rather than made anew, its elements and text nodes kept.
   */
  const rowSlots = [];
  let drawnEntries = null;
  const ROW_PARTS = ['step', 'time', 'origin', 'action', 'changes', 'cause', 'effects'];

  function renderTimeline(force) {
    rowsBox.style.height = `${entries.length * ROW_HEIGHT}px`;
    const first = Math.max(0, Math.floor(timelineTop / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(entries.length, Math.ceil((timelineTop + timelineHeight) / ROW_HEIGHT) + OVERSCAN);
    if (!force && renderedRange && renderedRange[0] === first && renderedRange[1] === last) return;
    const refill = renderedRange === null || drawnEntries !== entries;
    drawnEntries = entries;
    renderedRange = [first, last];
    const count = Math.max(0, last - first);
    while (rowSlots.length < count) rowsBox.append(rowSlots[rowSlots.push(timelineRow()) - 1]);
    while (rowSlots.length > count) rowSlots.pop().remove();
    const session = view.session;
    const selectedRow = view.position > 0 ? session.rows[view.position - 1] : null;
    const related = new Set();
    if (selectedRow) {
      if (selectedRow.cause !== null && session.positionOfStep.has(selectedRow.cause)) related.add(session.positionOfStep.get(selectedRow.cause));
      for (const effect of selectedRow.effects) related.add(session.positionOfStep.get(effect));
    }
    for (let k = 0; k < count; k++) {
      const i = first + k;
      const node = rowSlots[k];
      if (refill || node.entryIndex !== i) {
        fillRow(node, session, entries[i], i);
        node.entryIndex = i;
      }
      const position = entries[i].position;
      const selected = position !== undefined && position === view.position;
      node.classList.toggle('selected', selected);
      if (selected) node.setAttribute('aria-selected', 'true');
      else node.removeAttribute('aria-selected');
      node.classList.toggle('pinned', view.pin !== null && position === view.pin);
      node.classList.toggle('related', entries[i].kind === 'row' && related.has(position));
    }
  }

  /** An empty timeline row: its parts, each a span with one text node, filled by fillRow. */
  function timelineRow() {
    const node = element('div', 'row');
    node.parts = {};
    for (const part of ROW_PARTS) {
      const span = element('span', part === 'cause' || part === 'effects' ? 'link' : part);
      span.append(document.createTextNode(''));
      node.parts[part] = span;
      node.append(span);
    }
    node.addEventListener('mouseenter', () => node.row && highlightRelated(node.row, true));
    node.addEventListener('mouseleave', () => node.row && highlightRelated(node.row, false));
    return node;
  }

  // The parts each kind of entry shows; a row's links show when it has them.
  const KIND_PARTS = {
    gap: ['step', 'changes'],
    initial: ['step', 'time', 'origin', 'action'],
    row: ['step', 'time', 'origin', 'action', 'changes'],
  };

  /** Fills a row with an entry: a gap, the state before the first row, or a row. */
  function fillRow(node, session, entry, index) {
    node.style.top = `${index * ROW_HEIGHT}px`;
    node.className = 'row';
    node.row = null;
    node.removeAttribute('role');
    delete node.dataset.position;
    const texts = { step: '', time: '', origin: '', action: '', changes: '', cause: '', effects: '' };
    if (entry.kind === 'gap') {
      const [from, to, reason] = entry.gap;
      node.classList.add('gap');
      texts.step = from === to ? String(from) : `${from}–${to}`;
      texts.changes = reason === 'not kept' ? `${from === to ? 'step' : 'steps'} not kept` : `${from === to ? 'step' : 'steps'} not recorded: ${reason}`;
    } else if (entry.kind === 'initial') {
      node.classList.add('initial');
      node.dataset.position = '0';
      texts.step = String(session.baseStep);
      const before = session.state(0) === undefined ? '(not kept)' : '(state before the steps shown)';
      texts.action = session.baseStep === 0 ? '(initial state)' : before;
    } else {
      const row = entry.row;
      node.row = row;
      node.dataset.position = String(entry.position);
      node.setAttribute('role', 'option');
      texts.step = String(row.step);
      if (live.skippedSteps(session).has(row.step)) node.classList.add('skipped');
      texts.time = timeText(row);
      texts.origin = row.origin;
      texts.action = row.label;
      const changes = session.changesAt(entry.position);
      const parts = changes.slice(0, CHANGES_PER_ROW).map(summaryText);
      if (changes.length > CHANGES_PER_ROW) parts.push(`+${changes.length - CHANGES_PER_ROW} more`);
      texts.changes = session.missingBefore(entry.position) ? '(the whole state: the steps before are missing)' : parts.length ? parts.join(', ') : '(no change)';
      if (row.cause !== null) texts.cause = `←${row.cause}`;
      if (row.effects.length) texts.effects = `→${row.effects.join(',')}`;
      if (session.comparison && session.comparison.step === row.step) node.classList.add('diverged');
    }
    const shown = KIND_PARTS[entry.kind];
    for (const part of ROW_PARTS) {
      const span = node.parts[part];
      // The text node the span has keeps its layout object: only its text changes.
      span.firstChild.data = visible(texts[part]);
      span.hidden = !(shown.includes(part) || texts[part] !== '');
    }
  }

  function highlightRelated(row, on) {
    const session = view.session;
    const positions = [];
    if (row.cause !== null && session.positionOfStep.has(row.cause)) positions.push(session.positionOfStep.get(row.cause));
    for (const effect of row.effects) positions.push(session.positionOfStep.get(effect));
    for (const position of positions) {
      const node = rowsBox.querySelector(`[data-position="${position}"]`);
      if (node) node.classList.toggle('related', on || isRelatedToSelection(position));
    }
  }

  function isRelatedToSelection(position) {
    const session = view.session;
    if (view.position === 0) return false;
    const selected = session.rows[view.position - 1];
    return session.positionOfStep.get(selected.cause) === position || selected.effects.some((step) => session.positionOfStep.get(step) === position);
  }

  function scrollToSelection() {
    const index = entryOfPosition[view.position] ?? -1;
    if (index < 0) return;
    const top = index * ROW_HEIGHT;
    if (top < timelineTop || top + ROW_HEIGHT > timelineTop + timelineHeight) {
      const highest = Math.max(0, entries.length * ROW_HEIGHT - timelineHeight);
      timelineTop = Math.round(Math.min(highest, Math.max(0, top - timelineHeight / 3)));
      rowsBox.style.height = `${entries.length * ROW_HEIGHT}px`;
      $('timeline').scrollTop = timelineTop;
    }
  }

  // --- the state tree

  function changeMarks(changes) {
    const marks = new Map();
    for (const change of changes) {
      const key = JSON.stringify(change.path);
      if (change.kind !== 'removed' && change.kind !== 'moved') marks.set(key, change.kind === 'added' ? 'added' : 'changed');
      for (let i = 0; i < change.path.length; i++) {
        const ancestor = JSON.stringify(change.path.slice(0, i));
        if (!marks.has(ancestor)) marks.set(ancestor, 'contains-change');
      }
    }
    return marks;
  }

  function valueNode(value) {
    const length = redactedLength(value);
    if (length !== null) return element('span', 'secret', `<redacted ${length}>`);
    if (typeof value === 'string') {
      const node = element('span', 'string');
      if (value.length <= LONG_STRING) {
        node.textContent = visible(JSON.stringify(value));
        return node;
      }
      node.textContent = visible(JSON.stringify(value.slice(0, LONG_STRING))) + '…';
      const wrapper = element('span');
      const more = element('button', 'more', `show all ${value.length} characters`);
      more.type = 'button';
      more.addEventListener('click', (event) => {
        event.stopPropagation();
        node.textContent = visible(JSON.stringify(value));
        more.remove();
      });
      wrapper.append(node, ' ', more);
      return wrapper;
    }
    if (typeof value === 'number') return element('span', 'number', String(value));
    if (value instanceof Exact) return element('span', 'number', value.text);
    if (value === undefined) return element('span', 'meta', '(absent)');
    return element('span', 'literal', JSON.stringify(value));
  }

  /**
   * A key as the tree shows it: bare when it reads as a name, else quoted (`""`, `"[id=3]"`,
   * `"a b"`, so that no key passes for an element or for nothing), and cut past KEY_LENGTH.
   */
  function keyLabel(key) {
    if (IDENTIFIER.test(key) && key.length <= KEY_LENGTH) return key;
    return key.length <= KEY_LENGTH ? JSON.stringify(key) : JSON.stringify(key.slice(0, KEY_LENGTH)) + `… (${key.length.toLocaleString('en-US')} characters)`;
  }

  function keyNode(key, path) {
    const node = element('span', 'key', key);
    node.title = visible(`History of ${pathText(path)}`);
    node.addEventListener('click', (event) => {
      event.preventDefault();
      event.stopPropagation();
      view.field = path;
      update({});
      // The history is under the state and the diff: bring it into view.
      $('history-section').scrollIntoView({ block: 'nearest' });
    });
    return node;
  }

  /** A collapsible tree of `value`; `marks` maps paths (as JSON) to a class. */
  function treeNode(key, value, path, marks, depth, openDepth = 1) {
    const mark = marks.get(JSON.stringify(path));
    const selectedField = view.field !== null && samePath(view.field, path);
    const container = (Array.isArray(value) || isObject(value)) && redactedLength(value) === null;
    if (!container) {
      const leaf = element('div', 'leaf');
      if (mark) leaf.classList.add(mark);
      if (selectedField) leaf.classList.add('field-selected');
      if (key !== null) leaf.append(keyNode(key, path), ': ');
      leaf.append(valueNode(value));
      return leaf;
    }
    const details = element('details');
    if (mark) details.classList.add(mark);
    if (selectedField) details.classList.add('field-selected');
    const summary = element('summary');
    if (key !== null) summary.append(keyNode(key, path), ' ');
    const count = Array.isArray(value) ? value.length : Object.keys(value).length;
    summary.append(
      element('span', 'meta', Array.isArray(value) ? `[${count} ${count === 1 ? 'item' : 'items'}]` : `{${count} ${count === 1 ? 'field' : 'fields'}}`)
    );
    details.append(summary);
    const children = element('div', 'children');
    details.append(children);
    let shown = 0;
    // The elements of an identified array are named by id, so that a field's history follows
    // its element wherever the element moves.
    const identified = Array.isArray(value) && value.length > 0 && idIndex(value) !== null;
    const entries = Array.isArray(value)
      ? value.map((item, index) => [identified ? { id: item.id } : index, item])
      : sortedKeys(value).map((name) => [name, value[name]]);
    const draw = (index, before) => {
      const [name, item] = entries[index];
      const label = typeof name === 'string' ? keyLabel(name) : pathText([name]);
      children.insertBefore(treeNode(label, item, path.concat([name]), marks, depth + 1, openDepth), before);
    };
    // A run of children not drawn yet, as a button that draws CHILDREN_PER_PAGE of them at a
    // time, in place.
    const run = (from, to) => {
      const more = element('button', 'more');
      more.type = 'button';
      let next = from;
      const label = () => {
        more.textContent = `show ${Math.min(CHILDREN_PER_PAGE, to - next)} more of ${to - next}` + (next > 0 ? ` (from ${next})` : '');
      };
      label();
      more.addEventListener('click', () => {
        const end = Math.min(to, next + CHILDREN_PER_PAGE);
        for (let i = next; i < end; i++) draw(i, more);
        next = end;
        if (next < to) label();
        else more.remove();
      });
      return more;
    };
    const showMore = () => {
      shown = entries.length;
      // The children a change, the open field or a search leads to, with two neighbours
      // each, are drawn wherever they are; the first page when nothing leads anywhere. Only
      // the first 200 were drawn before, and a change at [id=436] was not on the page.
      const wanted = new Set();
      if (entries.length > CHILDREN_PER_PAGE) {
        for (let i = 0; i < entries.length && wanted.size < 1000; i++) {
          const childPath = path.concat([entries[i][0]]);
          if (marks.has(JSON.stringify(childPath)) || (view.field !== null && isPrefix(childPath, view.field))) {
            for (let j = Math.max(0, i - 2); j <= Math.min(entries.length - 1, i + 2); j++) wanted.add(j);
          }
        }
      }
      if (wanted.size === 0) for (let i = 0; i < Math.min(entries.length, CHILDREN_PER_PAGE); i++) wanted.add(i);
      let skippedFrom = null;
      for (let i = 0; i < entries.length; i++) {
        if (wanted.has(i)) {
          if (skippedFrom !== null) children.append(run(skippedFrom, i));
          skippedFrom = null;
          draw(i, null);
        } else if (skippedFrom === null) {
          skippedFrom = i;
        }
      }
      if (skippedFrom !== null) children.append(run(skippedFrom, entries.length));
    };
    const opensByItself =
      depth < openDepth || (mark !== undefined && depth < 12) || (view.field !== null && isPrefix(path, view.field) && path.length < view.field.length);
    // Expand all opens a node without waiting for its `toggle` event, which comes later.
    details.reveal = () => {
      details.open = true;
      if (shown === 0) showMore();
    };
    if (opensByItself) {
      details.reveal();
    } else {
      details.addEventListener('toggle', () => {
        if (details.open && shown === 0) showMore();
      });
    }
    return details;
  }

  /** The tree of `value`, opened `openDepth` levels down (and wherever `marks` leads). */
  function tree(value, marks, openDepth = 1) {
    const root = element('div');
    if (value === undefined) {
      root.append(element('span', 'empty', 'not recorded: the steps before this one are missing'));
      return root;
    }
    root.append(treeNode(null, value, [], marks, 0, openDepth));
    return root;
  }

  // --- the selected step

  function renderStepInfo() {
    const session = view.session;
    const box = $('step-info');
    clear(box);
    if (view.position === 0) {
      box.append(element('div', 'headline', session.baseStep === 0 ? 'Step 0: the initial state' : `Step ${session.baseStep}: the state before the steps shown`));
      return;
    }
    const row = session.rows[view.position - 1];
    const headline = element('div', 'headline');
    headline.append(`Step ${row.step}  `, element('span', 'origin', row.origin), '  ', visible(row.label));
    box.append(headline);
    const meta = element('div', 'meta');
    meta.append(row.time === null ? '' : `+${(row.time / 1000).toFixed(3)}s`);
    if (row.keyframe) meta.append(' · stored as a keyframe');
    if (row.cause !== null) {
      meta.append(' · the result of step ');
      meta.append(link(String(row.cause), () => select(session.position(row.cause))));
    }
    if (row.effects.length) {
      meta.append(row.effects.length === 1 ? ' · its effect answered at step ' : ' · its effects answered at steps ');
      row.effects.forEach((step, index) => {
        if (index) meta.append(', ');
        meta.append(link(String(step), () => select(session.position(step))));
      });
    }
    box.append(meta);
    // Open, and its payload with it: it took three clicks to see what an action carried.
    const action = element('details');
    action.open = true;
    action.append(element('summary', null, 'Action'));
    const actionTree = element('div', 'tree');
    actionTree.append(tree(row.action, new Map(), 4));
    action.append(actionTree);
    box.append(action);
  }

  function renderState() {
    const session = view.session;
    const state = session.state(view.position);
    const changes = view.position === 0 ? [] : session.changesAt(view.position);
    $('state-title').textContent = `at step ${session.stepAt(view.position)}` + (changes.length ? ` · ${changes.length} changed here, marked` : '');
    const box = $('state');
    clear(box);
    const marks = changeMarks(changes);
    const found = view.search ? findValues(state, view.search) : null;
    if (found) {
      for (const path of found.paths) {
        marks.set(JSON.stringify(path), 'found');
        for (let i = 0; i < path.length; i++) {
          const ancestor = JSON.stringify(path.slice(0, i));
          if (!marks.has(ancestor)) marks.set(ancestor, 'contains-found');
        }
      }
      $('search-result').textContent = found.count === 0 ? 'not here' : `${found.count.toLocaleString('en-US')} here${found.count > found.paths.length ? `, the first ${found.paths.length} marked` : ''}`;
    } else {
      $('search-result').textContent = '';
    }
    box.append(tree(state, marks));
    const raw = $('raw');
    // The raw view is the text Copy JSON copies, one value a line: visible() would turn its
    // line breaks into `\n`.
    if (view.raw) raw.textContent = state === undefined ? '(not recorded)' : jsonText(state, '');
    raw.hidden = !view.raw;
    box.hidden = view.raw;
  }

  /** `value` as pretty JSON, keys in the log's order, exact numbers as their text. */
  function jsonText(value, indent) {
    const inner = indent + '  ';
    if (Array.isArray(value)) {
      if (value.length === 0) return '[]';
      return '[\n' + value.map((item) => inner + jsonText(item, inner)).join(',\n') + '\n' + indent + ']';
    }
    if (isObject(value)) {
      const keys = sortedKeys(value);
      if (keys.length === 0) return '{}';
      return '{\n' + keys.map((key) => `${inner}${jsonString(key)}: ${jsonText(value[key], inner)}`).join(',\n') + '\n' + indent + '}';
    }
    return typeof value === 'string' ? jsonString(value) : scalarJSON(value);
  }

  /** The most places a search marks in the tree; it counts them all. */
  const FOUND_MARKED = 200;

  /**
   * The places in `state` whose key or scalar value holds `query`, case ignored: how many,
   * and the paths of the first FOUND_MARKED.
   */
  function findValues(state, query) {
    const wanted = query.toLowerCase();
    const paths = [];
    let count = 0;
    const visit = (value, path, key) => {
      const keyMatches = typeof key === 'string' && key.toLowerCase().includes(wanted);
      const container = (Array.isArray(value) || isObject(value)) && redactedLength(value) === null;
      if (keyMatches || (!container && value !== undefined && compact(value).toLowerCase().includes(wanted))) {
        count += 1;
        if (paths.length < FOUND_MARKED) paths.push(path);
      }
      if (!container) return;
      if (Array.isArray(value)) {
        const identified = value.length > 0 && idIndex(value) !== null;
        value.forEach((item, index) => visit(item, path.concat([identified ? { id: item.id } : index]), null));
      } else {
        for (const name of sortedKeys(value)) visit(value[name], path.concat([name]), name);
      }
    };
    if (state !== undefined) visit(state, [], null);
    return { count, paths };
  }

  /** Opens every node of the state's tree, up to a few thousand; or closes them all. */
  function expandAll(open) {
    const box = $('state');
    if (!open) {
      for (const node of box.querySelectorAll('details[open]')) node.open = false;
      return;
    }
    let opened = 0;
    for (let pass = 0; pass < 32 && opened < 5000; pass++) {
      const closed = box.querySelectorAll('details:not([open])');
      if (closed.length === 0) break;
      for (const node of closed) {
        node.reveal?.();
        opened += 1;
      }
    }
  }

  /** Copies the state at the step as JSON: the log's values, not their escapes. */
  function copyJSON() {
    const state = view.session.state(view.position);
    const text = state === undefined ? '' : jsonText(state, '');
    const done = () => ($('search-result').textContent = 'copied');
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, () => copyBySelection(text, done));
    } else {
      copyBySelection(text, done);
    }
  }

  function copyBySelection(text, done) {
    const area = element('textarea');
    area.value = text;
    document.body.append(area);
    area.select();
    if (document.execCommand('copy')) done();
    area.remove();
  }

  function diffLines(changes, box) {
    clear(box);
    if (changes.length === 0) {
      box.append(element('div', 'empty', '(no differences)'));
      return;
    }
    for (const change of changes) {
      const { sign, text } = changeText(change, 120);
      const line = element('div', `diff-line ${change.kind}`);
      line.append(element('span', 'sign', sign), ' ');
      const path = element('span', 'path', text);
      path.title = visible(`History of ${pathText(change.path)}`);
      path.addEventListener('click', () => {
        view.field = change.path;
        update({});
      });
      line.append(path);
      box.append(line);
    }
  }

  function renderDiff() {
    const session = view.session;
    if (view.against) {
      const other = view.against.session;
      const position = other.position(view.against.step);
      $('diff-title').textContent = `Diff: ${visible(other.label)} step ${other.stepAt(position)} → ${visible(session.label)} step ${session.stepAt(view.position)}`;
      const before = other.state(position);
      const after = session.state(view.position);
      clear($('diff'));
      if (before === undefined || after === undefined) $('diff').append(element('div', 'empty', 'not recorded'));
      else diffLines(diff(before, after), $('diff'));
      return;
    }
    const from = view.pin !== null && view.pin !== view.position ? view.pin : view.position - 1;
    const title = $('diff-title');
    if (from < 0) {
      title.textContent = 'Diff';
      clear($('diff'));
      $('diff').append(element('div', 'empty', 'the first state: nothing before it to compare with'));
      return;
    }
    const pinned = view.pin !== null && view.pin !== view.position;
    title.textContent = `Diff: ${pinned ? 'pinned ' : ''}step ${session.stepAt(from)} → ${session.stepAt(view.position)}`;
    const before = session.state(from);
    const after = session.state(view.position);
    if (!pinned && after !== undefined && session.missingBefore(view.position)) {
      clear($('diff'));
      $('diff').append(element('div', 'empty', `the steps before are missing: step ${session.stepAt(view.position)} is shown whole`));
      return;
    }
    if (before === undefined || after === undefined) {
      clear($('diff'));
      $('diff').append(element('div', 'empty', 'not recorded'));
      return;
    }
    diffLines(pinned ? diff(before, after) : session.changesAt(view.position), $('diff'));
  }

  /**
   * The open field's history, built once per session and field and kept while the step moves
   * (it walked every state of the session at every step: 1.1 s a step on a 100,000-step
   * login): the positions where the value changed, the values, and the rows drawn.
   */
  let historyView = null;

  /** What changed inside a container, for a history row: its changes in short, paths relative to the field. */
  function containerChange(previous, value) {
    const changes = diff(previous, value);
    const parts = changes.slice(0, CHANGES_PER_ROW).map(summaryText);
    if (changes.length > CHANGES_PER_ROW) parts.push(`+${changes.length - CHANGES_PER_ROW} more`);
    return parts.join(', ');
  }

  function historyText(position, previous, value) {
    if (position === 0) return describe(value, 80);
    const containers =
      (Array.isArray(previous) && Array.isArray(value)) || (isObject(previous) && isObject(value) && redactedLength(previous) === null && redactedLength(value) === null);
    // `[id=436].status: "loading" → "loaded"`, where `[1000 items] → [1000 items]` said nothing.
    return containers ? containerChange(previous, value) : `${describe(previous, 60)} → ${describe(value, 60)}`;
  }

  /**
   * Whether a patch operation at `path` may change the value at `field`: one path holds the
   * other. A patch names elements by index and a field may name them by id, so an index
   * against an id may match.
   */
  function mayTouch(path, field) {
    for (let i = 0; i < Math.min(path.length, field.length); i++) {
      const a = path[i];
      const b = field[i];
      if (isIDComponent(a) || isIDComponent(b)) {
        if (typeof a === 'string' || typeof b === 'string') return false;
        continue;
      }
      if (a !== b) return false;
    }
    return true;
  }

  // History rows drawn on each side of the change in effect; more on demand. `status` of a
  // 100,000-step login changes at 11,000 steps: all drawn, the first view took 3 s; with 50
  // a side, drawing the rows took up to 33 ms of a jump over the photo page; 20 a side were
  // 330 of the 890 layout objects a jump made dirty there.
  const HISTORY_AROUND = 10;
  const HISTORY_MORE = 200;

  /**
   * The steps where the value at `field` changed: the state before the first row, then each
   * row whose value differs from the one before it. A patch that touches nothing at or under
   * the field is skipped without comparing.
   */
  function buildHistory(session, field) {
    const positions = [];
    const values = [];
    let previous;
    session.forEachState((position, state) => {
      if (position > 0) {
        const row = session.rows[position - 1];
        if (!row.keyframe && !row.payload.some((operation) => mayTouch(operation[1], field))) return;
      }
      const value = state === undefined ? undefined : valueAt(state, field);
      if (position > 0 && (value === previous || deepEqual(value, previous))) return;
      positions.push(position);
      values.push(value);
      previous = value;
    });
    const node = element('div');
    const changes = positions.length - 1;
    node.append(element('div', 'meta', changes === 1 ? 'changed at 1 step' : `changed at ${changes.toLocaleString('en-US')} steps`));
    const table = element('table', 'history-table');
    // Fixed columns (the table's layout is fixed): the step as wide as the session's last.
    const columns = element('colgroup');
    for (const name of ['num', 'label', 'text']) columns.append(element('col', name));
    columns.firstChild.style.width = `${String(session.data.lastStep).length + 2}ch`;
    const body = element('tbody');
    table.append(columns, body);
    node.append(table);
    return { session, key: pathText(field), positions, values, texts: [], node, body, from: 0, to: 0, current: -1 };
  }

  /** The index of the change in effect at `position`: the last at or before it. */
  function changeInEffect(history, position) {
    let low = 0;
    let high = history.positions.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (history.positions[middle] <= position) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  function historyRow(history, index) {
    const session = history.session;
    const position = history.positions[index];
    const row = element('tr');
    const stepCell = element('td', 'num');
    stepCell.append(link(String(session.stepAt(position)), () => select(position)));
    row.append(stepCell);
    row.append(element('td', 'label', position === 0 ? (session.baseStep === 0 ? '(initial)' : '(before)') : session.rows[position - 1].label));
    history.texts[index] ??= historyText(position, history.values[index - 1], history.values[index]);
    row.append(element('td', null, history.texts[index]));
    if (index === history.current) row.classList.add('current');
    return row;
  }

  /** A row that draws `count` more changes on one side when clicked. */
  function historyMore(history, count, earlier) {
    const row = element('tr');
    const cell = element('td');
    cell.colSpan = 3;
    const more = Math.min(count, HISTORY_MORE);
    cell.append(
      link(`${earlier ? '↑' : '↓'} ${more.toLocaleString('en-US')} ${earlier ? 'earlier' : 'later'} of ${count.toLocaleString('en-US')}`, () => {
        if (earlier) history.from -= more;
        else history.to += more;
        drawHistory(history);
      })
    );
    row.append(cell);
    return row;
  }

  function drawHistory(history) {
    const table = history.body;
    clear(table);
    if (history.from > 0) table.append(historyMore(history, history.from, true));
    for (let index = history.from; index < history.to; index++) table.append(historyRow(history, index));
    const later = history.positions.length - history.to;
    if (later > 0) table.append(historyMore(history, later, false));
  }

  function renderHistory() {
    const session = view.session;
    const box = $('history');
    const title = $('history-title');
    if (view.field === null) {
      historyView = null;
      clear(box);
      title.textContent = 'History';
      box.append(element('div', 'empty', 'click a field in the state to see every step that changed it'));
      return;
    }
    title.textContent = visible(`History of ${pathText(view.field)}`);
    if (historyView === null || historyView.session !== session || historyView.key !== pathText(view.field)) {
      historyView = buildHistory(session, view.field);
    }
    const history = historyView;
    if (box.firstChild !== history.node || box.childNodes.length !== 1) {
      clear(box);
      box.append(history.node);
    }
    const current = changeInEffect(history, view.position);
    if (current === history.current) return;
    history.current = current;
    if (current < history.from || current >= history.to) {
      // Out of the rows drawn: draw the rows around it.
      history.from = Math.max(0, current - HISTORY_AROUND);
      history.to = Math.min(history.positions.length, current + HISTORY_AROUND + 1);
      drawHistory(history);
      return;
    }
    history.body.querySelector('tr.current')?.classList.remove('current');
    history.body.rows[current - history.from + (history.from > 0 ? 1 : 0)]?.classList.add('current');
  }

  function renderComparison() {
    const session = view.session;
    const box = $('comparison');
    clear(box);
    const comparison = session.comparison;
    if (!comparison) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    if (session.stepAt(view.position) !== comparison.step) {
      // Away from the failing step, one line keeps it in sight, and leads back to it.
      const line = element('div', 'away', `Replay diverged at step ${comparison.step} · `);
      line.append(link('show the comparison', () => select(session.position(comparison.step))));
      box.append(line);
      return;
    }
    box.append(element('div', 'headline', comparison.headline));
    if (comparison.behaviour) {
      // The state matched; the work the step asks for did not: one line per difference.
      const list = element('ul', 'behaviour');
      for (const line of comparison.behaviour) list.append(element('li', null, line));
      box.append(element('h3', null, `${comparison.leftTitle} → ${comparison.rightTitle}`), list);
      return;
    }
    const changes = diff(comparison.left, comparison.right);
    const sides = element('div', 'sides');
    for (const [title, value] of [
      [comparison.leftTitle, comparison.left],
      [comparison.rightTitle, comparison.right],
    ]) {
      const side = element('div');
      side.append(element('h3', null, title));
      const treeBox = element('div', 'tree');
      treeBox.append(tree(value, changeMarks(changes)));
      side.append(treeBox);
      sides.append(side);
    }
    box.append(sides);
    const list = element('div');
    box.append(element('h3', null, `${comparison.leftTitle} → ${comparison.rightTitle}`), list);
    diffLines(changes, list);
  }

  function renderControls() {
    const session = view.session;
    const scrubber = $('scrubber');
    scrubber.max = String(session.lastPosition);
    scrubber.value = String(view.position);
    const step = session.stepAt(view.position);
    $('step-label').textContent = `step ${step} of ${session.data.lastStep}`;
    const pin = $('pin');
    pin.textContent = view.pin === null ? 'Pin' : `Unpin ${session.stepAt(view.pin)}`;
    pin.setAttribute('aria-pressed', String(view.pin !== null));
    // The selected step stays selected when the filter hides it: the count says so.
    const hidden = isVisible(view.position) ? '' : ` · step ${step}, selected, does not match`;
    $('filter-count').textContent = matchCount + (matchCount ? hidden : '');
  }

  function update({ sessionChanged = false, filterChanged = false, scroll = true } = {}) {
    if (!view.session) return;
    if (sessionChanged) {
      renderSessions();
      renderOrigins();
    }
    if (sessionChanged || filterChanged) {
      computeMatching();
      buildEntries();
      renderedRange = null;
    }
    renderControls();
    if (scroll) scrollToSelection();
    renderTimeline(true);
    renderComparison();
    renderStepInfo();
    renderState();
    renderDiff();
    renderHistory();
    writeFragment();
    if (live.enabled) live.render();
  }

  function select(position) {
    const session = view.session;
    view.position = Math.max(0, Math.min(session.lastPosition, position));
    update({});
  }

  function move(direction) {
    const session = view.session;
    let position = view.position + direction;
    while (position > 0 && position < session.lastPosition && !isVisible(position)) position += direction;
    if (position < 0 || position > session.lastPosition || !isVisible(position)) return;
    select(position);
  }

  function home() {
    select(0);
  }

  function end() {
    const session = view.session;
    let position = session.lastPosition;
    while (position > 0 && !isVisible(position)) position -= 1;
    select(position);
  }

  /** The timer of play, while it plays. */
  let playing = null;

  /** Plays the visible steps from the selected one at the chosen speed, to the last. */
  function togglePlay() {
    if (playing !== null) {
      clearInterval(playing);
      playing = null;
    } else {
      const perSecond = Number($('speed').value) || 5;
      playing = setInterval(() => {
        const before = view.position;
        move(1);
        if (view.position === before) togglePlay();
      }, 1000 / perSecond);
    }
    $('play').textContent = playing === null ? '▶ Play' : '❚❚ Pause';
    $('play').setAttribute('aria-pressed', String(playing !== null));
  }

  function togglePin() {
    view.pin = view.pin === null ? view.position : null;
    update({ scroll: false });
  }

  // ---------------------------------------------------------------------------------------
  // Wiring

  // ---------------------------------------------------------------------------------------
  // Live: the running apps of `rewind live` (docs/live.md)

  /**
   * The page of `rewind live`: sessions arrive from the server that sent the page, each
   * loaded in parts, the steps after the last it holds (`?after=N`, at most 4,096 a load), and
   * again when it grows (one load in flight a session, so that a fast app costs a load per
   * answer, not per step), and commands go back to the app through the server. Every
   * request carries the pairing code of the page's address, when there is one.
   */
  const live = {
    enabled: DATA.live === true,
    /** The server's routes by name, `:id` where a session's id goes: written once, in Swift. */
    routes: DATA.live_routes ?? {},
    code: new URLSearchParams(location.search).get('code'),
    /** Session number → its id, and the app's last word: { travelling, shown_step, skipped, held, step }. */
    ids: new Map(),
    /** Session id → the session held. */
    held: new Map(),
    states: new Map(),
    loading: new Map(),
    /** Outcomes listed before their session loaded: applied when it arrives. */
    pendingOutcomes: new Map(),
    started: false,
    /** For `rewind bench` and the tests: the loads made, and the bytes they took. */
    loads: 0,
    bytes: 0,
    /**
     * With `?timing=1` in the address: each `steps` event's time, and, once a load holds its
     * step and the page is laid out, `[step, ms]`: the event's last step and the milliseconds
     * from the event to that step drawn.
     */
    timing: new URLSearchParams(location.search).has('timing'),
    announced: [],
    drawn: [],

    /** The route `name`, for session `id` when it names one, with the pairing code. */
    route(name, id, query = '') {
      const path = id === undefined ? this.routes[name] : this.routes[name].replace(':id', encodeURIComponent(id));
      return this.url(query === '' ? path : `${path}?${query}`);
    },

    url(path) {
      return this.code === null ? path : `${path}${path.includes('?') ? '&' : '?'}code=${encodeURIComponent(this.code)}`;
    },

    skippedSteps(session) {
      return new Set(this.states.get(session.number)?.skipped ?? []);
    },

    /** Loads what is new of session `id`, from the last step held, until it holds all. */
    async load(id) {
      const state = this.loading.get(id) ?? { busy: false, again: false };
      this.loading.set(id, state);
      if (state.busy) {
        state.again = true;
        return;
      }
      state.busy = true;
      try {
        do {
          state.again = false;
          let more = true;
          while (more) {
            const after = this.held.get(id)?.through ?? 0;
            const response = await fetch(this.route('data', id, `after=${after}`), { cache: 'no-store' });
            if (!response.ok) {
              const answer = await response.json().catch(() => null);
              this.say(`cannot load a session: ${answer?.error?.message ?? response.status}`);
              return;
            }
            const text = await response.text();
            this.loads += 1;
            this.bytes += text.length;
            const data = text.includes('"$exact') ? JSON.parse(text, revive) : JSON.parse(text);
            this.arrive(id, data);
            if (this.timing) this.markDrawn(id);
            more = data.through < data.lastStep;
          }
        } while (state.again);
      } catch (error) {
        this.say(`cannot load a session: ${error}`);
      } finally {
        state.busy = false;
      }
    },

    /**
     * A part of a session, loaded: the steps after those held, appended; or, from step 0 (a
     * first load, or a server that holds the session anew), the session of its number
     * replaced, or added.
     */
    arrive(id, data) {
      const old = this.held.get(id) ?? null;
      if (old !== null && data.after !== 0) {
        // A part that does not follow what is held (none does, one load a session at a time)
        // is left: the next load asks from what is held.
        if (data.after !== old.through) return;
        const following = view.session === old && view.position === old.lastPosition;
        appended(old, old.append(data), following);
        this.render();
        return;
      }
      const session = new Session(data);
      this.ids.set(session.number, id);
      this.held.set(id, session);
      const listed = this.pendingOutcomes.get(id);
      if (listed) {
        this.pendingOutcomes.delete(id);
        this.states.set(session.number, listed);
      }
      const index = sessions.findIndex((other) => other.number === session.number);
      const previous = index >= 0 ? sessions[index] : null;
      const following = previous === null || (view.session === previous && view.position === previous.lastPosition);
      if (previous) sessions[index] = session;
      else sessions.push(session);
      if (!this.started) {
        this.started = true;
        start();
        this.render();
        return;
      }
      if (view.session === previous || view.session === null) {
        view.session = session;
        view.position = following ? session.lastPosition : Math.min(view.position, session.lastPosition);
        if (view.pin !== null) view.pin = Math.min(view.pin, session.lastPosition);
      }
      update({ sessionChanged: true, scroll: following });
      this.render();
    },

    /** The events whose steps the session now holds: timed to now, laid out. */
    markDrawn(id) {
      const through = this.held.get(id)?.through ?? 0;
      void document.body.offsetHeight;
      const now = performance.now();
      this.announced = this.announced.filter(([session, step, at]) => {
        if (session !== id || step > through) return true;
        this.drawn.push([step, now - at]);
        return false;
      });
    },

    async send(command) {
      const session = view.session;
      const id = session && this.ids.get(session.number);
      if (!id) return;
      try {
        const response = await fetch(this.route('commands', id), {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(command),
        });
        const answer = await response.json();
        this.say(response.ok ? `sent (${command.command}), waiting for the app…` : `refused: ${answer.error?.message ?? response.status}`);
      } catch (error) {
        this.say(`cannot reach the inspector: ${error}`);
      }
    },

    say(text) {
      $('live-outcome').textContent = text;
    },

    outcome(event) {
      const number = [...this.ids].find(([, id]) => id === event.session)?.[0];
      if (number === undefined) return;
      this.states.set(number, event);
      if (event.number !== 0) this.say(event.refusal === null ? `done (command ${event.number})` : `the app refused: ${event.refusal}`);
      if (view.session?.number === number) {
        renderTimeline(true);
        this.render();
      }
    },

    /** The bar: where the app is, and the selected step's buttons. */
    render() {
      const session = view.session;
      if (!session) return;
      const state = this.states.get(session.number);
      const parts = [`app at step ${session.data.lastStep}`];
      if (state?.travelling) {
        parts.push(state.shown_step !== null ? `travelling: shows step ${state.shown_step}` : 'travelling');
        if (state.skipped.length) parts.push(`without ${state.skipped.join(', ')}`);
        parts.push(`${state.held} ${state.held === 1 ? 'action' : 'actions'} held`);
      } else {
        parts.push('live');
      }
      $('live-status').textContent = parts.join(' · ');
      const step = session.stepAt(view.position);
      $('live-skip').textContent = this.skippedSteps(session).has(step) ? `Unskip ${step}` : `Skip ${step}`;
      $('live-travel').textContent = `Travel to ${step}`;
      // Prefilled with the selected step's action, the case a developer most often sends again.
      const row = view.position > 0 ? session.rows[view.position - 1] : null;
      if (row && document.activeElement !== $('live-action')) $('live-action').value = jsonText(row.action, '').replace(/\n\s*/g, ' ');
    },

    start() {
      $('live').hidden = false;
      document.body.dataset.live = 'waiting';
      $('log-name').textContent = 'live';
      if (this.timing) {
        // What `rewind bench` and the browser tests read, through WebDriver.
        window.rewindLiveTiming = () => ({ loads: this.loads, bytes: this.bytes, drawn: this.drawn.slice(), rows: view.session?.rows.length ?? 0 });
        // The report's own jumps (`#bench=N`), on what the page holds now.
        window.rewindLiveJumps = (count) => {
          runBench(count);
          return JSON.parse(document.body.dataset.bench);
        };
      }
      const events = new EventSource(this.route('events'));
      events.addEventListener('steps', (event) => {
        const steps = JSON.parse(event.data);
        if (this.timing) this.announced.push([steps.session, steps.through, performance.now()]);
        this.load(steps.session);
      });
      events.addEventListener('outcome', (event) => this.outcome(JSON.parse(event.data)));
      // Each (re)connection loads every session held: a page reloaded, or an inspector
      // restarted, catches up from what the inspector's log holds.
      events.addEventListener('open', async () => {
        try {
          const response = await fetch(this.route('sessions'), { cache: 'no-store' });
          for (const listed of (await response.json()).sessions) {
            if (!listed.id) continue;
            if (listed.outcome) this.pendingOutcomes.set(listed.id, listed.outcome);
            this.load(listed.id);
          }
        } catch (error) {
          this.say(`cannot list the sessions: ${error}`);
        }
      });
      $('live-travel').addEventListener('click', () => this.send({ command: 'travel', step: view.session.stepAt(view.position) }));
      $('live-resume').addEventListener('click', () => this.send({ command: 'resume' }));
      $('live-skip').addEventListener('click', () => {
        const step = view.session.stepAt(view.position);
        this.send({ command: this.skippedSteps(view.session).has(step) ? 'unskip' : 'skip', step });
      });
      $('live-dispatch').addEventListener('click', () => {
        let action;
        try {
          action = JSON.parse($('live-action').value);
        } catch {
          this.say('the action is not JSON');
          return;
        }
        this.send({ command: 'dispatch', action });
      });
    },
  };

  function start() {
    $('log-name').textContent = visible(DATA.log);
    if (live.enabled && sessions.length === 0) {
      live.start();
      return;
    }
    if (sessions.length === 0) {
      $('panes').textContent = 'This log holds no session.';
      return;
    }
    // Read before the first update rewrites the fragment with the view alone.
    const bench = Number(new URLSearchParams(location.hash.replace(/^#/, '')).get('bench'));
    readFragment();
    // A live page follows the app's newest step unless its address names one.
    if (live.enabled && !new URLSearchParams(location.hash.replace(/^#/, '')).has('step')) view.position = view.session.lastPosition;
    update({ sessionChanged: true, scroll: false });
    // Measured once the header holds its sessions, and again whenever the pane's size changes.
    measureTimeline();
    scrollToSelection();
    renderTimeline(true);
    new ResizeObserver(() => {
      measureTimeline();
      renderTimeline(false);
    }).observe($('timeline'));

    $('timeline').addEventListener(
      'scroll',
      () => {
        timelineTop = $('timeline').scrollTop;
        renderTimeline(false);
      },
      { passive: true }
    );
    $('timeline').addEventListener('click', (event) => {
      const row = event.target.closest('.row[data-position]');
      if (row) select(Number(row.dataset.position));
    });
    $('scrubber').addEventListener('input', (event) => select(Number(event.target.value)));
    $('prev').addEventListener('click', () => move(-1));
    $('next').addEventListener('click', () => move(1));
    $('first').addEventListener('click', home);
    $('last').addEventListener('click', end);
    $('pin').addEventListener('click', togglePin);
    $('play').addEventListener('click', togglePlay);
    $('speed').addEventListener('change', () => {
      // A new speed takes effect at once.
      if (playing !== null) {
        togglePlay();
        togglePlay();
      }
    });
    $('search').value = view.search;
    $('search').addEventListener('input', (event) => {
      view.search = event.target.value;
      update({ scroll: false });
    });
    $('expand-all').addEventListener('click', () => expandAll(true));
    $('collapse-all').addEventListener('click', () => expandAll(false));
    $('raw-toggle').addEventListener('click', () => {
      view.raw = !view.raw;
      $('raw-toggle').setAttribute('aria-pressed', String(view.raw));
      update({ scroll: false });
    });
    $('copy-json').addEventListener('click', copyJSON);
    $('filter-action').addEventListener('input', (event) => {
      view.action = event.target.value;
      update({ filterChanged: true });
    });
    $('filter-origin').addEventListener('change', (event) => {
      view.origin = event.target.value;
      update({ filterChanged: true });
    });
    window.addEventListener('hashchange', () => {
      const before = view.session;
      readFragment();
      update({ sessionChanged: view.session !== before, filterChanged: true });
    });
    document.addEventListener('keydown', (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target;
      if (target instanceof HTMLInputElement && target.type !== 'range') return;
      if (target instanceof HTMLSelectElement) return;
      const actions = {
        ArrowRight: () => move(1),
        ArrowDown: () => move(1),
        j: () => move(1),
        ArrowLeft: () => move(-1),
        ArrowUp: () => move(-1),
        k: () => move(-1),
        Home: home,
        End: end,
        p: togglePin,
        ' ': togglePlay,
        '/': () => $('search').focus(),
      };
      const action = actions[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    });
    document.body.dataset.ready = 'true';
    if (live.enabled) document.body.dataset.live = 'connected';
    if (bench > 0) runBench(bench);
  }

  /**
   * For `rewind bench`: the time from navigation to the first view laid out, then `count`
   * steps to positions spread over the session, each timed to its layout, written into the
   * page for `chromium --dump-dom` to read.
   */
  function runBench(count) {
    void document.body.offsetHeight;
    const ready = performance.now();
    const session = view.session;
    const times = [];
    let seed = 1;
    for (let i = 0; i < count; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const position = seed % (session.lastPosition + 1);
      const started = performance.now();
      select(position);
      void document.body.offsetHeight;
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    document.body.dataset.bench = JSON.stringify({
      ready: Math.round(ready),
      steps: count,
      p50: times[Math.floor(times.length / 2)] || 0,
      p99: times[Math.floor(times.length * 0.99)] || 0,
      max: times[times.length - 1] || 0,
    });
  }

  start();
})();
