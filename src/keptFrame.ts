// A page's frame (the app bar, the menu, the page's title, search and filters, its rows still being read), kept in this
// browser when the page first draws it, so that public/boot.js paints it at the next visit before any script has run:
// on a phone the frame shows at the first paint (about 1 s) instead of a wait until the scripts are in (3 s), as a
// server-rendered page would. It is a picture, not the page: boot.js lays it over the page, hidden from assistive
// technologies and inert, and the page removes it as soon as it draws its own frame (useKeptFrame). Kept per address, for
// this build, theme and window width only (boot.js checks them); never with a record in it (it is taken while the rows
// are still being read, and every field's value is dropped); forgotten at sign-in and sign-out (forgetKeptFrames).
import { useEffect, useEffectEvent, useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';

/** What public/boot.js reads: the key of a path's frame, and how to take the painted frame away. */
type BootFrame = { key: (path: string) => string; prefix: string; stylesKey: string; remove: () => void };
const bootFrame = () => (window as { pecflowFrame?: BootFrame }).pecflowFrame;

/** A frame larger than this (markup and styles) is not kept: localStorage is small, and a huge frame paints slowly. */
const MAX_FRAME_CHARS = 400_000;
/** The frames of the pages last opened, no more: localStorage holds the session and the lists' settings too. */
const MAX_FRAMES = 4;
/** A record's own path under its list's (/pec/178, /settings/shops/12, /payment_statements/create). */
const RECORD_PATH = /\/(\d+|create)(\/|$)/;

/** The kept frame, if one is painted, gives way to the page's own. */
export const dropKeptFrame = () => bootFrame()?.remove();

/** Counts sign-ins and sign-outs: a frame taken before one is not written after it. */
let generation = 0;

/** Sign-in and sign-out: the next user never sees the frame (menus, names) drawn for the previous one. */
export function forgetKeptFrames() {
  generation += 1;
  const prefix = bootFrame()?.prefix;
  if (!prefix) return;
  for (const key of Object.keys(localStorage)) if (key.startsWith(prefix)) localStorage.removeItem(key);
}

/** The page's markup (a copy) without what only this visit had: ids and what points to them, test ids, every field's value. */
function frameMarkup(copy: HTMLElement): string {
  const attributes = ['id', 'for', 'name', 'value', 'data-testid', 'aria-labelledby', 'aria-describedby', 'aria-controls', 'aria-owns'];
  for (const element of [copy, ...copy.querySelectorAll('*')]) for (const attribute of attributes) element.removeAttribute(attribute);
  // A count beside the bell is the count of that moment: the bell is kept without it.
  for (const badge of copy.querySelectorAll('.MuiBadge-badge')) badge.remove();
  return copy.innerHTML;
}

/** The build the page runs (public/boot.js ties what is kept to it); none on the development server. */
const appBuild = () => document.querySelector<HTMLMetaElement>('meta[name="pecflow-app"]')?.content;

/**
 * The rules emotion has inserted (with CSSOM calls: its style elements hold no text in production), of every sheet or
 * of its main sheet only (`css`, and the kept one boot.js wrote: `css <names>`), without the global styles'.
 */
function emotionRules({ mainOnly }: { mainOnly: boolean }): string[] {
  const rules: string[] = [];
  for (const sheet of document.styleSheets) {
    const emotion = sheet.ownerNode instanceof HTMLStyleElement ? sheet.ownerNode.dataset.emotion : undefined;
    if (emotion === undefined || (mainOnly && !/^css( |$)/.test(emotion))) continue;
    for (const rule of sheet.cssRules) rules.push(rule.cssText);
  }
  return rules;
}

/**
 * Of emotion's rules, those a frame's markup uses: a rule names the elements it styles by their class (`.css-<name>`),
 * and a rule naming none (the global styles, an animation's keyframes) is kept. The page's other rules (its rows, its
 * drawers, the pages opened before) were ≈80 % of the sheet: the next visit's browser parsed and matched them for
 * nothing before its first paint.
 */
function rulesUsedBy(html: string, rules: string[]): string[] {
  const used = new Set(html.match(/css-[\w-]+/g));
  return rules.filter((rule) => {
    const names = rule.match(/\.css-[\w-]+/g);
    return !names || names.some((name) => used.has(name.slice(1)));
  });
}

/** How many of emotion's rules the kept styles hold. */
let keptRuleCount: number | undefined;

/** Emotion's rules kept for the next page loads are not kept past this (the pages' rules are ≈100,000 characters). */
const MAX_STYLES_CHARS = 500_000;

/**
 * Emotion's rules of its main sheet (not the global styles, which emotion inserts again at each load) and the names
 * it knows them by (`.css-<name>`, `@keyframes <name>`): public/boot.js writes them into the next page load as emotion
 * finds a server-rendered page's, so that emotion inserts none of them again. Parsing them as one style sheet costs
 * the browser little; inserting them one by one as the page first draws took ≈80 ms of a phone's CPU in that task.
 * They hold no data (theme colours, sizes): kept across sign-in and sign-out, for this build and theme only.
 */
function keepStyles() {
  const stylesKey = bootFrame()?.stylesKey;
  const build = appBuild();
  if (!stylesKey || !build) return;
  const rules = emotionRules({ mainOnly: true });
  const names = new Set<string>();
  for (const rule of rules) for (const [, className, animation] of rule.matchAll(/\.css-([\w-]+)|@keyframes ([\w-]+)/g)) names.add(className ?? animation);
  // Nothing new since they were last kept (or written by boot.js): no write.
  keptRuleCount ??= document.querySelector<HTMLStyleElement>('style[data-emotion^="css "]')?.sheet?.cssRules.length ?? 0;
  if (rules.length === keptRuleCount) return;
  const css = rules.join('\n');
  if (css.length > MAX_STYLES_CHARS) return;
  try {
    localStorage.setItem(stylesKey, JSON.stringify({ build, theme: document.documentElement.dataset.theme, names: [...names], css }));
    keptRuleCount = rules.length;
  } catch {
    // A full localStorage: the next load inserts its rules as before.
  }
}

/** Makes room for one more frame: the oldest ones go. */
function evictOldFrames(prefix: string, keep: string) {
  const others = Object.keys(localStorage)
    .filter((key) => key.startsWith(prefix) && key !== keep)
    .map((key) => ({ key, keptAt: Number((JSON.parse(localStorage.getItem(key) ?? '{}') as { keptAt?: number }).keptAt ?? 0) }))
    .sort((a, b) => b.keptAt - a.keptAt);
  for (const { key } of others.slice(MAX_FRAMES - 1)) localStorage.removeItem(key);
}

/** Safari has no requestIdleCallback: a short delay there. */
const whenIdle = (work: () => void) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(work, { timeout: 3000 }) : setTimeout(work, 200));

function keepFrame(path: string) {
  const frame = bootFrame();
  const build = appBuild();
  const root = document.getElementById('root');
  // The development server's page has no build to tie the frame to. A record's path (a drawer over the list: a file,
  // a creation) is no list's frame, nor a page under a dialog.
  const here = location.pathname + location.search;
  if (!frame || !build || !root || here !== path || RECORD_PATH.test(location.pathname) || document.querySelector('.MuiModal-root:not(.MuiModal-hidden)'))
    return;
  // Copied now, while the rows are still being read; made into text and written when the browser is idle, off the
  // rows' path (emotion's rules and the write took ≈20 ms of a phone's CPU in the task before the rows).
  const copy = root.cloneNode(true) as HTMLElement;
  const taken = { build, theme: document.documentElement.dataset.theme, width: window.innerWidth, keptAt: Date.now() };
  const takenIn = generation;
  whenIdle(() => {
    if (takenIn !== generation) return;
    const html = frameMarkup(copy);
    const css = rulesUsedBy(html, emotionRules({ mainOnly: false })).join('\n');
    if (html.length + css.length > MAX_FRAME_CHARS) return;
    const key = frame.key(path);
    try {
      evictOldFrames(frame.prefix, key);
      localStorage.setItem(key, JSON.stringify({ ...taken, html, css }));
    } catch {
      // A full localStorage keeps no frame: the next visit shows the wait, as before.
    }
  });
}

/**
 * For a page's frame: once it is drawn, the kept one (if painted) goes; while `reading` (its content not there yet),
 * this frame is kept for the next visit, after the browser has painted it; once its content is drawn, emotion's rules
 * of the page load so far are kept for the next loads (when the browser is idle).
 */
export function useKeptFrame(reading: boolean) {
  // The address as typed, its filters with it: a list searched or filtered has a frame of its own.
  const { pathname, search } = useLocation();
  const kept = useRef(false);
  const keepIfStillReading = useEffectEvent(() => {
    if (reading) keepFrame(pathname + search);
  });
  // Before the browser paints: the kept frame and the page's own never show together.
  useLayoutEffect(() => dropKeptFrame(), []);
  useLayoutEffect(() => {
    if (!reading || kept.current) return;
    kept.current = true;
    const painted = requestAnimationFrame(() => setTimeout(keepIfStillReading));
    return () => cancelAnimationFrame(painted);
  }, [reading]);
  useEffect(() => {
    if (!reading) whenIdle(keepStyles);
  }, [reading]);
}
