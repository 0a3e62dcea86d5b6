/**
 * Drawings composed of the sets' own drawings, for common game subjects no single drawing shows:
 * a campfire is two Fluent logs crossed under a Fluent fire; a torch is a Fluent fire on a wooden
 * handle. Each part keeps its own licence; the composite's provenance lists them.
 *
 * Coordinates are the composite's own 32 × 32 units; a part's transform places its drawing (scaled
 * from the drawing's own units to 32) in them, or `svg` is markup drawn in those units.
 */
export interface CompositePart {
  /** A drawing of the catalog, placed by `transform` (its own 32-unit square around 16,16). */
  id?: string;
  transform?: string;
  /** Markup of Assetloom's own in the composite's units (a handle, a shadow). */
  svg?: string;
  /** The colour a one-colour silhouette part is drawn in (its `currentColor`), e.g. an emblem on cloth. */
  color?: string;
}

export interface CompositeDef {
  id: string;
  label: string;
  heads: string[];
  words: string[];
  zh: string[];
  group: string;
  box: [number, number, number, number];
  color: [number, number, number];
  parts: CompositePart[];
  /** Which way it is drawn: a side-on vehicle or animal faces 'left' or 'right' (default 'front'). */
  facing?: 'left' | 'right' | 'front';
}

/** Units of a circle of radius r about 16,16 as a closed path (a hole when drawn even-odd inside a shape). */
function circlePath(r: number): string {
  return `M${16 - r} 16a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`;
}

/**
 * A gear's outline about 16,16: `n` teeth reaching radius `tip` from a rim of radius `root`, each tooth
 * `half` of a tooth's turn wide at its root (in turns) and `top` at its tip — every tooth the same shape,
 * none on an axis (teeth half a pitch off the axes are one another's mirror images on the pixel grid).
 */
function gearPath(n: number, tip: number, root: number, half: number, top: number): string {
  const pt = (r: number, turn: number) => {
    const a = 2 * Math.PI * turn - Math.PI / 2;
    return `${(16 + r * Math.cos(a)).toFixed(3)} ${(16 + r * Math.sin(a)).toFixed(3)}`;
  };
  const step = 1 / n;
  let d = '';
  for (let k = 0; k < n; k++) {
    const c = (k + 0.5) * step;
    const w = step * half;
    const t = step * top;
    d += `${k === 0 ? 'M' : 'L'}${pt(root, c - w)}L${pt(tip, c - t)}L${pt(tip, c + t)}L${pt(root, c + w)}`;
    d += `A${root} ${root} 0 0 1 ${pt(root, c + step - w)}`;
  }
  return `${d}Z`;
}

export const COMPOSITES: readonly CompositeDef[] = [
  {
    // a pirate flag (issue #39, decision 0095): black cloth with its skull-and-swords emblem in bone
    // white, flying from a steel pole with a gold finial (game-icons' pirate flag is the emblem alone)
    id: 'x/pirate-flag',
    label: 'pirate flag',
    heads: ['flag', 'jolly-roger'],
    words: ['pirate', 'jolly', 'roger', 'skull', 'crossbones'],
    zh: ['海盗旗'],
    group: 'composite',
    box: [4, 1, 29, 30],
    color: [42, 39, 48],
    parts: [
      {
        svg:
          '<ellipse cx="5.8" cy="30" rx="3" ry=".8" fill="#5b5560"/>' +
          '<rect x="5" y="2.6" width="1.6" height="27.4" fill="#7d8392"/>' +
          '<rect x="5" y="2.6" width=".6" height="27.4" fill="#c3c8d2"/>' +
          '<circle cx="5.8" cy="2.4" r="1.4" fill="#d9b44a"/>' +
          '<path fill="#2a2730" d="M6.6 4.2C12 3.2 16 5.6 21 4.6C24 4 26.4 4.4 28.6 5V19.8C26.2 19.2 24 19.4 21 20C16 21 12 18.8 6.6 19.8Z"/>' +
          '<path fill="#1b1920" d="M21 4.6C22.4 4.3 23.4 4.2 24 4.2V19.4C23 19.4 22 19.6 21 20Z"/>' +
          '<path fill="#3e3a47" d="M6.6 4.2C9 3.8 10.6 4 12 4.4V19.2C10.4 19.2 8.6 19.4 6.6 19.8Z"/>',
      },
      {
        id: 'g/pirate-flag',
        transform: 'translate(17.4 12.2) scale(0.44) translate(-16 -16)',
        color: '#ece6d4',
      },
    ],
  },
  {
    id: 'x/campfire',
    label: 'campfire',
    heads: ['campfire', 'bonfire', 'campfires', 'fire-pit'],
    words: ['camp', 'fire', 'logs', 'burning'],
    zh: ['篝火', '营火', '火堆'],
    group: 'composite',
    box: [3, 3, 29, 30],
    color: [255, 140, 40],
    parts: [
      { svg: '<ellipse cx="16" cy="28.2" rx="12.5" ry="2.2" fill="#5b5560"/>' },
      { id: 'f/wood', transform: 'translate(16 25) rotate(62) scale(0.42 0.9) translate(-16 -16)' },
      { id: 'f/wood', transform: 'translate(16 25) rotate(-62) scale(0.42 0.9) translate(-16 -16)' },
      { id: 'f/fire', transform: 'translate(16 13.8) scale(0.58) translate(-16 -16)' },
    ],
  },
  {
    id: 'x/torch',
    label: 'torch',
    heads: ['torch', 'firebrand'],
    words: ['fire', 'flame', 'burning', 'wall'],
    zh: ['火把', '火炬'],
    group: 'composite',
    box: [10, 1, 22, 31],
    color: [255, 140, 40],
    parts: [
      {
        svg: '<path fill="#8a5633" d="M14.6 14h2.8l-0.4 16.2c0 .5-.4.8-.9.8h-.2c-.5 0-.9-.3-.9-.8z"/><path fill="#6b3f22" d="M15.9 14h1.5l-0.4 16.2c0 .5-.3.8-.7.8z"/><rect x="13" y="12.5" width="6" height="3.2" rx="1.2" fill="#5a5f6e"/><rect x="13" y="12.5" width="6" height="1.2" rx=".6" fill="#9aa1b2"/>',
      },
      { id: 'f/fire', transform: 'translate(16 7.6) scale(0.42) translate(-16 -16)' },
    ],
  },
  {
    // a fire hydrant (issue #39, decision 0083): a red squat post on a flange, a domed bonnet with its
    // nut, a cap on each side and a larger one in front; lit from the upper left like the sets
    id: 'x/fire-hydrant',
    label: 'fire hydrant',
    heads: ['hydrant', 'fireplug', 'fire-hydrant', 'firehydrant'],
    words: ['fire', 'street', 'water', 'plug'],
    zh: ['消防栓', '消火栓'],
    group: 'composite',
    box: [5, 3, 27, 30],
    color: [214, 40, 44],
    parts: [
      {
        svg:
          '<ellipse cx="16" cy="29.4" rx="9" ry="1.4" fill="#5b5560"/>' +
          '<rect x="9" y="26.6" width="14" height="2.6" rx=".6" fill="#8e1c22"/>' +
          '<rect x="11" y="12" width="10" height="15" fill="#d8282e"/>' +
          '<rect x="11.6" y="12" width="2" height="15" fill="#f0624e"/>' +
          '<rect x="18.6" y="12" width="2.4" height="15" fill="#a41c24"/>' +
          '<rect x="11" y="23.6" width="10" height="1.3" fill="#a41c24"/>' +
          '<path d="M10.6 11.6a5.4 5.6 0 0 1 10.8 0z" fill="#d8282e"/>' +
          '<path d="M11.6 11.2a4.4 4.8 0 0 1 3.4-4.4a5 5.6 0 0 0-1.6 4.4z" fill="#f0624e"/>' +
          '<rect x="14.8" y="3.8" width="2.4" height="2.6" rx=".5" fill="#8e1c22"/>' +
          '<rect x="9.4" y="10.4" width="13.2" height="2.4" rx=".6" fill="#b0202a"/>' +
          '<rect x="9.4" y="10.4" width="13.2" height=".8" rx=".4" fill="#e8574a"/>' +
          '<rect x="6.4" y="15.6" width="4.8" height="4" rx=".8" fill="#c4242c"/>' +
          '<rect x="5.2" y="15" width="1.8" height="5.2" rx=".6" fill="#8e1c22"/>' +
          '<rect x="20.8" y="15.6" width="4.8" height="4" rx=".8" fill="#b0202a"/>' +
          '<rect x="25" y="15" width="1.8" height="5.2" rx=".6" fill="#7a161c"/>' +
          '<circle cx="16" cy="18.6" r="2.8" fill="#b0202a"/>' +
          '<circle cx="16" cy="18.6" r="1.3" fill="#7a161c"/>' +
          '<path d="M6.4 16.2h4.8" stroke="#e8574a" stroke-width=".6"/>',
      },
    ],
  },
  {
    // a lighthouse (issue #39, decision 0105): a tapered tower banded red and white, shaded as a
    // cylinder (a lit strip on the left, a shade on the right), a door and a window, a dark gallery
    // with its rail, a lamp room of pale glass round a lit lamp, a red cap with a finial, all on a
    // rock (game-icons' lighthouse is a stack of flat grey rectangles at 32 px)
    id: 'x/lighthouse',
    label: 'lighthouse',
    heads: ['lighthouse', 'beacon', 'pharos'],
    words: ['light', 'house', 'sea', 'coast', 'rock', 'tower'],
    zh: ['灯塔'],
    group: 'composite',
    box: [6, 1, 26, 31],
    color: [206, 52, 48],
    parts: [
      {
        svg:
          '<path fill="#6f6a72" d="M6 31l1.6-3.4 3-1.6h10.6l3.4 1.4 1.4 3.6z"/>' +
          '<path fill="#9a949c" d="M7.6 27.6l3-1.6h5.2l-1.4 2.2-4.4.6z"/>' +
          '<path fill="#f2ede4" d="M10.8 26.4l1.9-15.2h6.6l1.9 15.2z"/>' +
          '<path fill="#d4372f" d="M12.42 13.4h7.16l.46 3.6h-8.08zM11.7 19.2h8.6l.46 3.6h-9.52z"/>' +
          '<path fill="#d4372f" d="M11.1 24.4h9.8l.2 2h-10.2z"/>' +
          '<path fill="#000" fill-opacity=".24" d="M17.7 11.2h1.6l1.9 15.2h-2.6z"/>' +
          '<path fill="#fff" fill-opacity=".35" d="M12.7 11.2h1.2l-1 15.2h-1.4z"/>' +
          '<path fill="#3a3340" d="M14.7 26.4v-2.4a1.3 1.3 0 0 1 2.6 0v2.4z"/>' +
          '<rect x="15.2" y="17.6" width="1.6" height="1.8" fill="#3a3340"/>' +
          '<rect x="10.4" y="10" width="11.2" height="1.6" fill="#3a3340"/>' +
          '<rect x="10.4" y="8.2" width="11.2" height="1" fill="#3a3340"/>' +
          '<rect x="10.4" y="8.2" width="1" height="2.4" fill="#3a3340"/>' +
          '<rect x="20.6" y="8.2" width="1" height="2.4" fill="#3a3340"/>' +
          '<rect x="12.8" y="4.8" width="6.4" height="5.4" fill="#3a3340"/>' +
          '<rect x="13.4" y="5.4" width="5.2" height="4.4" fill="#ffe27a"/>' +
          '<circle cx="16" cy="7.6" r="1.5" fill="#fffbe6"/>' +
          '<rect x="13.4" y="5.4" width="1" height="4.4" fill="#fff6c0"/>' +
          '<path fill="#d4372f" d="M12 5.2l4-3.4 4 3.4z"/>' +
          '<path fill="#9e2620" d="M16 1.8l4 3.4h-4z"/>' +
          '<circle cx="16" cy="1.6" r=".9" fill="#3a3340"/>',
      },
    ],
  },
  {
    // a wooden chair (issue #39, decision 0105): seen a little from above and to the front, four
    // straight legs (the back two shorter and darker, just inside the front two), a seat with its
    // front edge in shade, a back of two uprights, a top rail and slats (Fluent's chair melts its thin
    // legs at 32 px)
    id: 'x/chair',
    label: 'chair',
    heads: ['chair'],
    words: ['wooden', 'wood', 'seat', 'furniture', 'dining', 'kitchen'],
    zh: ['椅子', '椅'],
    group: 'composite',
    box: [7, 2, 25, 31],
    color: [160, 104, 58],
    parts: [
      {
        svg:
          '<rect x="9.4" y="20" width="1.8" height="8.2" fill="#5e3a1f"/>' +
          '<rect x="20.8" y="20" width="1.8" height="8.2" fill="#5e3a1f"/>' +
          '<rect x="9.8" y="3" width="2.4" height="16" fill="#8e5a30"/>' +
          '<rect x="19.8" y="3" width="2.4" height="16" fill="#6e4424"/>' +
          '<rect x="9.8" y="3" width=".9" height="16" fill="#c48a52"/>' +
          '<rect x="9.8" y="2.6" width="12.4" height="3.4" rx=".8" fill="#a0683a"/>' +
          '<rect x="9.8" y="2.6" width="12.4" height="1.1" rx=".5" fill="#c48a52"/>' +
          '<rect x="13.4" y="6" width="1.8" height="11" fill="#8e5a30"/>' +
          '<rect x="16.8" y="6" width="1.8" height="11" fill="#8e5a30"/>' +
          '<rect x="12.2" y="11" width="7.6" height="1.4" fill="#7a4b28"/>' +
          '<path fill="#b77a45" d="M10 16.6h12l2.6 3.4h-17.2z"/>' +
          '<path fill="#d39a60" d="M10 16.6h12l.6.8h-13.2z"/>' +
          '<rect x="7.4" y="20" width="17.2" height="1.8" fill="#7a4b28"/>' +
          '<rect x="7.4" y="21.8" width="2.2" height="8.4" fill="#8e5a30"/>' +
          '<rect x="7.4" y="21.8" width=".8" height="8.4" fill="#c48a52"/>' +
          '<rect x="22.4" y="21.8" width="2.2" height="8.4" fill="#6e4424"/>' +
          '<rect x="7.4" y="21.8" width="17.2" height=".9" fill="#5e3a1f"/>' +
          // pegs where the rails meet the uprights, and the grain along the seat and the top rail
          // (decision 0121: a chair of joined wood, not a lump)
          '<path fill="#5e3a1f" d="M10.4 3.8h.9v.9h-.9zM20.7 3.8h.9v.9h-.9zM10.4 11.2h.9v.9h-.9zM20.7 11.2h.9v.9h-.9z"/>' +
          '<path fill="none" stroke="#94602f" stroke-width=".35" d="M11.2 18.2h5.6M15.4 19h6.4M13 4.6h5.4"/>',
      },
    ],
  },
  {
    // an old wooden chair (issue #39, decision 0121): the same chair weathered grey-brown, its seat
    // cracked, one slat of its back gone (a broken stub hangs from the rail), a chip out of the top
    // rail and its front legs scuffed pale at the foot ("old", "worn", "broken" drawn, not only said)
    id: 'x/old-chair',
    label: 'old chair',
    heads: ['chair'],
    words: [
      'old',
      'worn',
      'broken',
      'rickety',
      'weathered',
      'ancient',
      'battered',
      'wooden',
      'wood',
      'shabby',
    ],
    zh: ['旧椅子', '破椅子'],
    group: 'composite',
    box: [7, 2, 25, 31],
    color: [143, 119, 87],
    parts: [
      {
        svg:
          '<rect x="9.4" y="20" width="1.8" height="8.2" fill="#523f2c"/>' +
          '<rect x="20.8" y="20" width="1.8" height="7.4" fill="#523f2c"/>' +
          '<rect x="9.8" y="3" width="2.4" height="16" fill="#80684a"/>' +
          '<rect x="19.8" y="3" width="2.4" height="16" fill="#624e38"/>' +
          '<rect x="9.8" y="3" width=".9" height="16" fill="#ad9272"/>' +
          '<path fill="#8f7757" d="M10.6 2.6H20.4L21 3.6L22.2 3.4V6H9.8V3.4Z"/>' +
          '<path fill="#b59a76" d="M10.6 2.6H20.4L20.8 3.4H9.8Z"/>' +
          '<rect x="13.4" y="6" width="1.8" height="11" fill="#80684a"/>' +
          '<path fill="#80684a" d="M16.8 6h1.8v3.2l-.6 1.4-.5-1-.7 1.2z"/>' +
          '<rect x="12.2" y="11" width="7.6" height="1.4" fill="#6a5439"/>' +
          '<path fill="#9c8362" d="M10 16.6h12l2.6 3.4h-17.2z"/>' +
          '<path fill="#bba080" d="M10 16.6h12l.6.8h-13.2z"/>' +
          '<path fill="none" stroke="#3e3428" stroke-width=".55" d="M15.4 16.8l1 1.2-.9 1 .8 1"/>' +
          '<path fill="none" stroke="#806a4e" stroke-width=".35" d="M11.2 18.4h3.4M18 19h4"/>' +
          '<rect x="7.4" y="20" width="17.2" height="1.8" fill="#6a5439"/>' +
          '<rect x="7.4" y="21.8" width="2.2" height="8.4" fill="#80684a"/>' +
          '<rect x="7.4" y="21.8" width=".8" height="8.4" fill="#ad9272"/>' +
          '<rect x="22.4" y="21.8" width="2.2" height="8.4" fill="#624e38"/>' +
          '<rect x="7.4" y="21.8" width="17.2" height=".9" fill="#523f2c"/>' +
          '<path fill="#c8b294" d="M7.4 29.2h2.2v1H7.4zM22.4 29.2h2.2v1h-2.2z"/>' +
          '<path fill="#523f2c" d="M10.4 3.8h.9v.9h-.9zM20.7 3.8h.9v.9h-.9zM10.4 11.2h.9v.9h-.9z"/>',
      },
    ],
  },
  {
    // a fishing boat (issue #39, decision 0105): side on, a hull whose sheer line rises to the bow,
    // a white rubbing strake and a red bottom, a small wheelhouse with a window and a roof, a mast
    // with a boom and its net hanging (game-icons' fishing boat garbles its cabin at 32 px)
    id: 'x/fishing-boat',
    label: 'fishing boat',
    heads: ['trawler', 'fishing-boat', 'fishingboat', 'drifter', 'smack'],
    words: ['fishing', 'fish', 'boat', 'sea', 'net', 'harbour', 'harbor'],
    zh: ['渔船'],
    group: 'composite',
    box: [2, 3, 30, 28],
    color: [47, 93, 138],
    parts: [
      {
        svg:
          '<rect x="19.2" y="3.4" width="1.4" height="16" fill="#7a5a3a"/>' +
          '<rect x="19.2" y="3.4" width=".5" height="16" fill="#b08656"/>' +
          '<path fill="#7a5a3a" d="M20.4 5.6l7.2 3.2-.4.9-6.8-2.9z"/>' +
          '<path fill="#5f6b3e" d="M24.6 8.4l3 1.2.6 6.4-2.4 1.4-2.6-1.8z"/>' +
          '<path fill="#87955a" d="M24.6 8.4l1.2.5-.4 6.8-1.6-.9z"/>' +
          '<path fill="#3f4a2a" d="M24.4 12.2l3.6.8v.9l-3.7-.8zM25 14.8l2.9.3v.8l-3-.2z"/>' +
          '<rect x="7.6" y="12.2" width="8" height="7.6" fill="#efe8d6"/>' +
          '<rect x="13.6" y="12.2" width="2" height="7.6" fill="#cfc6b0"/>' +
          '<rect x="9" y="13.8" width="3.6" height="2.8" fill="#3a3340"/>' +
          '<rect x="9.5" y="14.3" width="2.6" height="1.8" fill="#8cc4e6"/>' +
          '<rect x="6.6" y="10.6" width="10" height="1.8" fill="#b53a2e"/>' +
          '<rect x="6.6" y="10.6" width="10" height=".7" fill="#dc5a46"/>' +
          '<path fill="#2f5d8a" d="M2.4 18.2C10 20.2 20 20.4 29.8 15.2L26.4 24.6C19 26.4 11 26.2 5 24.6z"/>' +
          '<path fill="#4a7fb4" d="M2.4 18.2C10 20.2 20 20.4 29.8 15.2l-.4 1.2C20 21.4 10 21.4 2.8 19.4z"/>' +
          '<path fill="#efe8d6" d="M3.2 20.4C10.4 22.2 20 22.4 28.9 17.8l-.36 1C20 23.4 10.4 23.4 3.6 21.5z"/>' +
          '<path fill="#b53a2e" d="M4.4 23.2C11 24.8 19 25 27 22.8l-.6 1.8C19 26.4 11 26.2 5 24.6z"/>' +
          '<path fill="#000" fill-opacity=".22" d="M5 24.6C11 26.2 19 26.4 26.4 24.6l.3-1C19 25.3 11 25.2 4.6 23.8z"/>',
      },
    ],
  },
  // a potion (issue #39, decision 0105): a round-bottomed glass flask, a clean straight neck with a
  // lip and a cork, the liquid filling its belly under a lit surface line, a highlight on the glass
  // (game-icons' standing potion floats its flask a pixel over its stand at 64 px: two shapes)
  {
    id: 'x/potion',
    label: 'potion',
    heads: ['potion', 'elixir', 'philter', 'philtre', 'tonic', 'draught'],
    words: ['bottle', 'flask', 'magic', 'drink', 'health'],
    zh: ['药水', '药剂'],
    group: 'composite',
    box: [7, 2, 25, 30],
    color: [216, 51, 74],
    parts: [
      {
        svg:
          '<circle cx="16" cy="20.6" r="8.6" fill="#8fb0c2"/>' +
          '<circle cx="16" cy="20.6" r="7.4" fill="#dcecf3"/>' +
          '<path fill="#d8334a" d="M9.9 17.4A7.4 7.4 0 1 0 22.1 17.4Z"/>' +
          '<path fill="#a3213a" d="M22.1 17.4A7.4 7.4 0 0 1 12 26.8C17 27 21.4 23 22.1 17.4Z"/>' +
          '<rect x="9.9" y="16.7" width="12.2" height="1.4" rx=".7" fill="#f0707c"/>' +
          '<rect x="14.3" y="6.4" width="3.4" height="7.4" fill="#dcecf3"/>' +
          '<rect x="16.6" y="6.4" width="1.1" height="7.4" fill="#a9c4d2"/>' +
          '<rect x="14.3" y="6.4" width=".8" height="7.4" fill="#ffffff"/>' +
          '<rect x="13.6" y="5.6" width="4.8" height="1.6" rx=".6" fill="#8fb0c2"/>' +
          '<rect x="14.5" y="1.8" width="3" height="4" rx=".7" fill="#b5835a"/>' +
          '<rect x="16.4" y="1.8" width="1.1" height="4" fill="#8a5f3c"/>' +
          '<rect x="14.5" y="1.8" width="3" height=".9" rx=".4" fill="#d6a678"/>' +
          '<ellipse cx="12.4" cy="19.4" rx="1.1" ry="1.9" fill="#ffffff"/>',
      },
    ],
  },
  // a mana potion: the same flask, its liquid blue, glowing (a pale halo round the glass, a star in it)
  {
    id: 'x/mana-potion',
    label: 'mana potion',
    heads: ['mana-potion'],
    words: ['potion', 'mana', 'magic', 'blue', 'glowing'],
    zh: ['法力药水', '魔法药水', '蓝药'],
    group: 'composite',
    box: [5, 1, 27, 31],
    color: [59, 111, 224],
    parts: [
      {
        svg:
          '<circle cx="16" cy="20.6" r="10.6" fill="#8cc4ff" fill-opacity=".38"/>' +
          '<circle cx="16" cy="20.6" r="8.6" fill="#8fb0c2"/>' +
          '<circle cx="16" cy="20.6" r="7.4" fill="#dcecf3"/>' +
          '<path fill="#3b6fe0" d="M9.9 17.4A7.4 7.4 0 1 0 22.1 17.4Z"/>' +
          '<path fill="#2444a8" d="M22.1 17.4A7.4 7.4 0 0 1 12 26.8C17 27 21.4 23 22.1 17.4Z"/>' +
          '<rect x="9.9" y="16.7" width="12.2" height="1.4" rx=".7" fill="#8cb8ff"/>' +
          '<rect x="14.3" y="6.4" width="3.4" height="7.4" fill="#dcecf3"/>' +
          '<rect x="16.6" y="6.4" width="1.1" height="7.4" fill="#a9c4d2"/>' +
          '<rect x="14.3" y="6.4" width=".8" height="7.4" fill="#ffffff"/>' +
          '<rect x="13.6" y="5.6" width="4.8" height="1.6" rx=".6" fill="#8fb0c2"/>' +
          '<rect x="14.5" y="1.8" width="3" height="4" rx=".7" fill="#b5835a"/>' +
          '<rect x="16.4" y="1.8" width="1.1" height="4" fill="#8a5f3c"/>' +
          '<rect x="14.5" y="1.8" width="3" height=".9" rx=".4" fill="#d6a678"/>' +
          '<ellipse cx="12.4" cy="19.4" rx="1.1" ry="1.9" fill="#ffffff"/>' +
          '<path fill="#eaf6ff" d="M18.4 20.4l.7 1.6 1.6.7-1.6.7-.7 1.6-.7-1.6-1.6-.7 1.6-.7z"/>',
      },
    ],
  },
  {
    // a crystal ball (issue #39, decision 0136): the blind review after 1130g found Fluent's crystal ball
    // read as "a snow globe on a grey block" (a pale blue globe with star flakes on a plinth). A seer's
    // orb glows: violet glass with a darker rim, swirls of mist and a bright core inside, a white glint
    // upper left, held by two gold claws on a turned wooden stand
    id: 'x/crystal-ball',
    label: 'crystal ball',
    heads: ['crystal-ball'],
    words: ['crystal', 'ball', 'orb', 'fortune', 'teller', 'seer', 'scrying', 'magic', 'glowing'],
    zh: ['水晶球'],
    group: 'composite',
    box: [6, 3, 26, 31],
    color: [123, 98, 214],
    parts: [
      {
        svg:
          '<rect x="6" y="28.6" width="20" height="2.4" rx="1" fill="#3e2414"/>' +
          '<path fill="#6b4226" d="M7.4 28.8h17.2l-2.2-3.6H9.6z"/>' +
          '<path fill="#8e5c34" d="M9.6 25.2h12.8l-.7 1.2H10.3z"/>' +
          '<path fill="#4e2e1a" d="M19.6 25.2h2.8l2.2 3.6h-3.4z"/>' +
          '<rect x="10.4" y="23" width="11.2" height="2.4" rx="1" fill="#a8743f"/>' +
          '<rect x="18.6" y="23" width="3" height="2.4" fill="#7a4f2c"/>' +
          '<circle cx="16" cy="13.2" r="9.6" fill="#45348f"/>' +
          '<circle cx="15.3" cy="12.5" r="8.5" fill="#7b62d6"/>' +
          '<path fill="#9d86ea" d="M9.4 11.2c2.4-2.6 6-2.8 7.8-1s4.4 1.4 5.6-.4c-.6 3-4 4.2-6.2 2.8S11.8 10.8 9.4 11.2z"/>' +
          '<path fill="#b9a6f6" d="M9.2 16c2.2-3 6.4-3.6 8.4-1.6s4.8 1.2 5.8-.8c-.4 3.6-4.2 5.2-6.8 3.6S11.4 14.8 9.2 16z"/>' +
          '<circle cx="16.6" cy="13.6" r="2.3" fill="#e8e0ff"/>' +
          '<circle cx="16.6" cy="13.6" r="1.1" fill="#ffffff"/>' +
          '<ellipse cx="11.6" cy="8.6" rx="1.7" ry="2.6" fill="#ffffff" transform="rotate(40 11.6 8.6)"/>' +
          '<path fill="#d9a838" d="M10.6 24.2C7.6 22.6 6 19.6 6.6 15.6l1.9.4c-.3 2.9.8 5.2 3.1 6.6z"/>' +
          '<path fill="#d9a838" d="M21.4 24.2c3-1.6 4.6-4.6 4-8.6l-1.9.4c.3 2.9-.8 5.2-3.1 6.6z"/>' +
          '<path fill="#a87420" d="M24.5 16l-1.1.2c.3 2.9-.8 5.2-3.1 6.6l1 1.4c2.4-1.7 3.6-4.6 3.2-8.2z"/>' +
          '<path fill="#d9a838" d="M14.6 23.4l1.4-2.6 1.4 2.6z"/>',
      },
    ],
  },
  {
    // a flag (issue #39, decision 0105): red cloth with a darker fold and a lit one, flying from a
    // solid steel pole (filled, its lit edge on the left) with a gold finial (the review after 1130
    // found game-icons' flying flag with 'a hollow flag pole')
    id: 'x/flag',
    label: 'flag',
    heads: ['flag'],
    words: ['pole', 'cloth', 'banner', 'waving'],
    zh: ['旗', '旗子', '旗帜'],
    group: 'composite',
    box: [4, 1, 29, 31],
    color: [200, 50, 58],
    parts: [
      {
        svg:
          '<rect x="4.8" y="2.6" width="2" height="27.6" fill="#7d8392"/>' +
          '<rect x="4.8" y="2.6" width=".8" height="27.6" fill="#c3c8d2"/>' +
          '<rect x="6.1" y="2.6" width=".7" height="27.6" fill="#5a5f6e"/>' +
          '<circle cx="5.8" cy="2.3" r="1.5" fill="#d9b44a"/>' +
          '<path fill="#c8323a" d="M6.8 4.2C12 3.2 16 5.6 21 4.6C24 4 26.4 4.4 28.6 5V19.8C26.2 19.2 24 19.4 21 20C16 21 12 18.8 6.8 19.8Z"/>' +
          '<path fill="#962530" d="M21 4.6C22.4 4.3 23.4 4.2 24 4.2V19.4C23 19.4 22 19.6 21 20Z"/>' +
          '<path fill="#e35a52" d="M6.8 4.2C9 3.8 10.6 4 12 4.4V19.2C10.4 19.2 8.6 19.4 6.8 19.8Z"/>',
      },
    ],
  },
  {
    // a witch's hat (issue #39, decision 0105): a tall cone bent at its tip over a wide brim, in a
    // deep purple, with a band of a second ramp and a gold buckle (refused before: no drawing showed it)
    id: 'x/witch-hat',
    label: 'witch hat',
    heads: ['witch-hat', 'witches-hat'],
    words: ['witch', 'hat', 'pointy', 'pointed', 'wizard', 'halloween', 'magic'],
    zh: ['女巫帽', '巫师帽'],
    group: 'composite',
    box: [2, 2, 30, 29],
    color: [84, 52, 120],
    parts: [
      {
        svg:
          '<ellipse cx="16" cy="25.4" rx="14" ry="3.6" fill="#3a2656"/>' +
          '<ellipse cx="16" cy="24.6" rx="13" ry="2.8" fill="#54347a"/>' +
          '<path fill="#54347a" d="M9.6 24.4C11 18 12.4 12 15 7.4C16.4 5 18.6 3.2 22.6 2.4C20 4.4 18.8 6.6 18.4 9.4C19.2 14 20.8 19.4 22.4 24.4C18 25.4 14 25.4 9.6 24.4Z"/>' +
          '<path fill="#3e2760" d="M18.4 9.4C19.2 14 20.8 19.4 22.4 24.4C21 24.7 19.6 24.9 18.4 25C18 19 17.4 13 18.4 9.4Z"/>' +
          '<path fill="#7050a0" d="M9.6 24.4C11 18 12.4 12 15 7.4C14.4 12 13.4 18 12.6 24.8C11.6 24.7 10.6 24.6 9.6 24.4Z"/>' +
          '<path fill="#c8553a" d="M10.4 21C14 21.9 18.2 21.9 21.4 21L22.2 23.6C18.4 24.6 13.8 24.6 9.8 23.6Z"/>' +
          '<rect x="14.6" y="21.2" width="3" height="2.8" fill="#e0b84a"/>' +
          '<rect x="15.4" y="21.9" width="1.4" height="1.4" fill="#c8553a"/>',
      },
    ],
  },
  {
    // a rubber ball (issue #39, decision 0105): a red ball with a yellow band round it, lit from the
    // upper left ('a rubber ball' was Fluent's confetti ball, its ribbons hanging: another thing)
    id: 'x/rubber-ball',
    label: 'rubber ball',
    heads: ['rubber-ball', 'bouncy-ball', 'bouncing-ball'],
    words: ['rubber', 'bouncy', 'ball', 'toy'],
    zh: ['皮球', '橡皮球'],
    group: 'composite',
    box: [4, 4, 28, 28],
    color: [214, 52, 52],
    parts: [
      {
        svg:
          '<circle cx="16" cy="16" r="12" fill="#d63434"/>' +
          '<path fill="#f2c230" d="M4.4 13.2C10 16.4 22 16.4 27.6 13.2L27.9 17.6C22 21 10 21 4.1 17.6Z"/>' +
          '<path fill="#000" fill-opacity=".22" d="M28 16A12 12 0 0 1 8 24.9C17 27 25 22 26.6 10.4A12 12 0 0 1 28 16Z"/>' +
          '<ellipse cx="11.4" cy="9.8" rx="3" ry="2" fill="#f58a7a"/>' +
          '<ellipse cx="10.6" cy="9.4" rx="1.2" ry=".8" fill="#fff2ec"/>',
      },
    ],
  },
  {
    // a sword icon (issue #39, decision 0110): a longsword on the cell's diagonal, pommel at the lower
    // left and point at the upper right, its blade in a bright steel ramp (lit edge, face, shaded edge)
    // with a gold cross-guard and pommel and a wrapped grip (the rig's sword filled half the cell, pale)
    id: 'x/sword',
    label: 'sword',
    heads: ['sword', 'longsword', 'broadsword', 'arming-sword'],
    words: ['steel', 'iron', 'weapon', 'knight', 'long', 'broad'],
    zh: ['剑', '长剑', '宝剑'],
    group: 'composite',
    box: [1.3, 1.6, 30.4, 30.7],
    color: [200, 210, 222],
    parts: [
      {
        svg:
          '<g transform="rotate(-45 16 16)">' +
          '<path fill="#c3ccd6" d="M9.6 13.9H32.4L36.4 16L32.4 18.1H9.6Z"/>' +
          '<path fill="#f4f8fb" d="M9.6 13.9H32.4L36.4 16H9.6Z"/>' +
          '<path fill="#8d99a8" d="M9.6 17.2H32.6L36.4 16L32.4 18.1H9.6Z"/>' +
          '<rect x="10.4" y="15.6" width="18" height=".8" fill="#dfe6ee"/>' +
          '<rect x="7.2" y="10.4" width="2.6" height="11.2" rx=".6" fill="#b8862c"/>' +
          '<rect x="7.2" y="10.4" width="2.6" height="5.6" rx=".6" fill="#f0c658"/>' +
          '<rect x="0.4" y="14.7" width="6.8" height="2.6" fill="#5a3620"/>' +
          '<rect x="0.4" y="14.7" width="6.8" height="1.1" fill="#8a5a34"/>' +
          '<path fill="#3e2414" d="M2.4 14.7h.8v2.6h-.8zM4.6 14.7h.8v2.6h-.8z"/>' +
          '<circle cx="-1.4" cy="16" r="2.3" fill="#b8862c"/>' +
          '<circle cx="-1.8" cy="15.4" r="1.2" fill="#f0c658"/>' +
          '</g>',
      },
    ],
  },
  {
    // a heart icon (issue #39, decision 0110): two equal lobes mirrored about the middle, red lit from
    // the upper left with a glint; its outline exactly symmetric at 32 px (Fluent's heart is not quite)
    id: 'x/heart',
    label: 'heart',
    heads: ['heart', 'health', 'life'],
    words: ['red', 'love', 'health', 'life', 'hp', 'icon', 'symbol'],
    zh: ['爱心', '红心'],
    group: 'composite',
    box: [2, 4, 30, 29],
    color: [220, 40, 60],
    parts: [
      {
        svg:
          '<path fill="#d8283c" d="M16 29L4.2 17.2C1 14 1.4 8.6 5 5.8C8.6 3 13.6 4 16 8C18.4 4 23.4 3 27 5.8C30.6 8.6 31 14 27.8 17.2Z"/>' +
          '<path fill="#a8182c" d="M16 29L27.8 17.2C30 15 30.8 12 30.2 9.4C29 14 22 21 16 25.6C10 21 3 14 1.8 9.4C1.2 12 2 15 4.2 17.2Z"/>' +
          '<ellipse cx="9" cy="9.6" rx="2.6" ry="1.8" fill="#f27884"/>' +
          '<circle cx="8.2" cy="9.2" r=".9" fill="#ffe4e6"/>',
      },
    ],
  },
  {
    // a gear icon (issue #39, decision 0110): eight even teeth round a rim, a recessed web and a lit
    // hub round a clean hole, flat steel in one ramp (game-icons' cog had uneven teeth at 32 px and no hole)
    id: 'x/gear',
    label: 'gear',
    heads: ['gear', 'cog', 'cogwheel', 'gearwheel', 'sprocket'],
    words: ['settings', 'options', 'machine', 'mechanism', 'steel', 'metal', 'icon'],
    zh: ['齿轮', '设置'],
    group: 'composite',
    box: [2, 2, 30, 30],
    color: [154, 164, 176],
    parts: [
      {
        svg:
          `<path fill-rule="evenodd" fill="#9aa4b0" d="${gearPath(8, 14, 9.4, 0.21, 0.15)} ${circlePath(4.9)}"/>` +
          `<path fill-rule="evenodd" fill="#737e8c" d="${circlePath(8.6)} ${circlePath(6.8)}"/>` +
          `<path fill-rule="evenodd" fill="#c9d0d8" d="${circlePath(6.8)} ${circlePath(4.9)}"/>`,
      },
    ],
  },
  {
    // a treasure chest, shut (issue #39, decision 0110): a box of planks under a domed lid, two iron
    // bands over both, an iron lip along the lid's edge and a gold lock plate; drawn closed, so its
    // opening turns the lid up about its back edge over gold heaped inside (props.ts), the box never
    // changing (Noto's chest is drawn open: folded shut it read as a slab with grey jaws)
    id: 'x/treasure-chest',
    label: 'treasure chest',
    heads: ['chest', 'treasure-chest', 'coffer', 'strongbox', 'loot-chest'],
    words: ['treasure', 'loot', 'wooden', 'wood', 'pirate', 'locked', 'closed', 'shut'],
    zh: ['宝箱', '箱子', '藏宝箱'],
    group: 'composite',
    box: [3, 5, 29, 28],
    color: [160, 94, 46],
    parts: [
      {
        svg:
          '<rect x="3.6" y="15" width="24.8" height="12.6" fill="#9b5a2c"/>' +
          '<rect x="3.6" y="15" width="24.8" height="1.4" fill="#b8723c"/>' +
          '<path fill="#6e3c1c" d="M3.6 20.2h24.8v.9H3.6zM3.6 25h24.8v2.6H3.6z"/>' +
          '<path fill="#b06a34" d="M3.6 15V10.4C3.6 7.2 6 5.4 9 5.4H23C26 5.4 28.4 7.2 28.4 10.4V15Z"/>' +
          '<path fill="#d08a4c" d="M4.6 9.4C5 7.4 6.8 6.4 9 6.4H23C25.2 6.4 27 7.4 27.4 9.4Z"/>' +
          '<path fill="#8a4e24" d="M3.6 12.6h24.8V15H3.6z"/>' +
          '<path fill="#7e8894" d="M6.8 5.8h3v21.8h-3zM22.2 5.8h3v21.8h-3z"/>' +
          '<path fill="#b7c0ca" d="M6.8 5.8h1.1v21.8H6.8zM22.2 5.8h1.1v21.8h-1.1z"/>' +
          '<rect x="3.6" y="14.2" width="24.8" height="1.6" fill="#4f5660"/>' +
          '<rect x="13.6" y="12.8" width="4.8" height="5.6" rx=".6" fill="#e2b443"/>' +
          '<rect x="13.6" y="12.8" width="4.8" height="1.4" rx=".5" fill="#f6dc86"/>' +
          '<rect x="15.4" y="15" width="1.2" height="2.2" fill="#3a2a1a"/>',
      },
    ],
  },
  {
    // an armchair (issue #39, decision 0110): front on, a padded back between two rolled arms, a seat
    // cushion and short wooden legs (the rig's armchair was a tall box with no arms)
    id: 'x/armchair',
    label: 'armchair',
    heads: ['armchair', 'easy-chair', 'fauteuil', 'wing-chair'],
    words: ['arm', 'padded', 'upholstered', 'comfy', 'cosy', 'cozy', 'lounge', 'furniture'],
    zh: ['扶手椅', '沙发椅'],
    group: 'composite',
    box: [2, 4, 30, 29],
    color: [168, 56, 58],
    parts: [
      {
        svg:
          '<path fill="#4a2a18" d="M5.4 24h2.6v5H5.4zM24 24h2.6v5H24z"/>' +
          '<path fill="#a8383a" d="M7 6.6C7 5 8.4 4 10 4H22C23.6 4 25 5 25 6.6V18H7Z"/>' +
          '<path fill="#c9544f" d="M8 6.4C8.2 5.4 9 5 10 5H22C23 5 23.8 5.4 24 6.4Z"/>' +
          '<path fill="#8e2c30" d="M15.4 6h1.2v11h-1.2z"/>' +
          '<path fill="#b8443f" d="M7 17.4H25L26.4 21.6H5.6Z"/>' +
          '<path fill="#d3635a" d="M7 17.4H25L25.3 18.4H6.7Z"/>' +
          '<path fill="#7a2427" d="M5.6 21.6h20.8v3.2H5.6z"/>' +
          '<path fill="#a8383a" d="M2 13.2C2 11.4 3.2 10.4 4.8 10.4S7.6 11.4 7.6 13.2V24.8H2Z"/>' +
          '<path fill="#a8383a" d="M24.4 13.2C24.4 11.4 25.6 10.4 27.2 10.4S30 11.4 30 13.2V24.8H24.4Z"/>' +
          '<path fill="#d3635a" d="M2.8 12.6C3 11.6 3.8 11.2 4.8 11.2S6.6 11.6 6.8 12.6Z"/>' +
          '<path fill="#d3635a" d="M25.2 12.6C25.4 11.6 26.2 11.2 27.2 11.2S29 11.6 29.2 12.6Z"/>' +
          '<path fill="#7a2427" d="M6.2 13.4h1.4v11.4H6.2zM28.6 13.4H30v11.4h-1.4z"/>',
      },
    ],
  },
  {
    // a wooden stool (issue #39, decision 0110): a round seat seen a little from above, three splayed
    // legs and a rung (game-icons' bar stool has steel legs and a red cushion: "wooden" was not drawn)
    id: 'x/stool',
    label: 'stool',
    heads: ['stool', 'footstool', 'milking-stool', 'tabouret'],
    words: ['wooden', 'wood', 'three', 'legged', 'seat', 'furniture', 'milking', 'tavern'],
    zh: ['凳子', '板凳', '木凳'],
    group: 'composite',
    box: [5, 7, 27, 29],
    color: [170, 112, 62],
    parts: [
      {
        svg:
          '<path fill="#7a4b28" d="M8.6 12.4h2.6L9.2 29H6.6zM20.8 12.4h2.6L25.4 29h-2.6z"/>' +
          '<path fill="#5e3a1f" d="M14.8 13h2.4v14.4h-2.4z"/>' +
          '<path fill="#6e4424" d="M8 22.2h16v1.8H8z"/>' +
          '<ellipse cx="16" cy="12" rx="11" ry="3.6" fill="#8e5a30"/>' +
          '<ellipse cx="16" cy="10.6" rx="11" ry="3.6" fill="#c48a52"/>' +
          '<ellipse cx="14.6" cy="10" rx="6" ry="1.6" fill="#d8a468"/>',
      },
    ],
  },
  {
    // a race car (issue #39, decision 0121): side on, nose to the right, a low red wedge (lit top edge,
    // body, shaded sill: three tones) with a white racing stripe, a number roundel on its flank, an
    // open cockpit with the driver's yellow helmet and dark visor behind a roll hoop, a rear wing on
    // its endplates and a front wing, a side intake, panel seams, and fat dark tyres round pale hubs
    // (game-icons' race car is one flat tone; its wheels the body's red)
    id: 'x/race-car',
    label: 'race car',
    facing: 'right',
    heads: ['race-car', 'racecar', 'racing-car', 'formula-one', 'f1', 'stock-car', 'sports-car', 'sportscar'],
    words: ['race', 'racing', 'formula', 'speed', 'fast', 'grand', 'prix', 'rally', 'sports', 'sport'],
    zh: ['赛车', '方程式赛车'],
    group: 'composite',
    box: [1, 8.4, 31.4, 26],
    color: [216, 40, 46],
    parts: [
      {
        svg:
          '<ellipse cx="16" cy="25.6" rx="14.6" ry="1.1" fill="#5b5560"/>' +
          // the rear wing: two endplates and a plank on a strut
          '<rect x="1.2" y="8.6" width="6.4" height="1.8" fill="#a41c24"/>' +
          '<rect x="1.2" y="8.6" width="6.4" height=".6" fill="#f0624e"/>' +
          '<rect x="1" y="8.4" width="1.3" height="6.6" fill="#2a2730"/>' +
          '<rect x="4.4" y="10.4" width="1.2" height="4.4" fill="#3e3a47"/>' +
          // the body: a low wedge, its lit top edge, its shaded sill
          '<path fill="#d8282e" d="M2.4 14.6L9.4 13.8L11.2 12.6H17.8L19.8 14.4L30.6 17.8L31.4 19.8L29.8 21.6H2.8L2.2 18.6Z"/>' +
          '<path fill="#f0624e" d="M2.4 14.6L9.4 13.8L9.6 14.6L2.4 15.4ZM19.8 14.4L30.6 17.8L30.8 18.6L19.6 15.2Z"/>' +
          '<path fill="#8e1c22" d="M2.4 19.8H31.2L29.8 21.6H2.8Z"/>' +
          '<path fill="#b0202a" d="M2.4 18.8H31L31.2 19.8H2.4Z"/>' +
          // a white racing stripe along its flank
          '<path fill="#f2ede4" d="M9.6 16.3H19.4L30.9 19.1L31 19.6L19.3 17.3H9.6Z"/>' +
          // the number roundel (its number a glyph: a mirrored row draws it unmirrored, decision 0145)
          '<circle cx="6.4" cy="16.8" r="2.5" fill="#f2ede4"/>' +
          '<g data-glyph="6.4"><path fill="#2a2730" d="M5.9 15.3h1.2v3.1h-.9v-2.2h-.6z"/></g>' +
          // a side intake and the panel seams
          '<path fill="#2a2730" d="M10.2 14.6h3.4l-.6 1.3h-2.8z"/>' +
          '<path fill="none" stroke="#8e1c22" stroke-width=".3" d="M19.8 14.6V18.6M24.6 16.2V19.8M9.6 14.2V18.6"/>' +
          // the cockpit: a dark opening, the roll hoop, the driver's helmet and visor
          '<path fill="#2a2730" d="M11.4 12.6H17.6L19 14H11.2Z"/>' +
          '<rect x="10" y="9.8" width="1.4" height="3.4" fill="#2a2730"/>' +
          '<circle cx="14.4" cy="11.2" r="2.3" fill="#f2c230"/>' +
          '<path fill="#c8962a" d="M14.4 13.5A2.3 2.3 0 0 0 16.7 11.2H12.1A2.3 2.3 0 0 0 14.4 13.5Z"/>' +
          '<path fill="#2a2730" d="M14.6 10.2H16.6A2.3 2.3 0 0 1 16.7 11.8H14.6Z"/>' +
          '<circle cx="13.4" cy="10.2" r=".6" fill="#fff2c0"/>' +
          // the front wing under the nose
          '<rect x="26.6" y="21.2" width="4.8" height="1" fill="#2a2730"/>' +
          // fat dark tyres (a lighter rubber shoulder), pale hubs with a dark nut
          '<circle cx="7.4" cy="21.8" r="3.9" fill="#1e1c24"/>' +
          '<path fill="#46424e" d="M4.2 19.6A3.9 3.9 0 0 1 10.6 19.6L9.6 20.4A2.6 2.6 0 0 0 5.2 20.4Z"/>' +
          '<circle cx="7.4" cy="21.8" r="1.9" fill="#b7c0ca"/>' +
          '<circle cx="7.4" cy="21.8" r=".7" fill="#4f5660"/>' +
          '<circle cx="24.8" cy="22.2" r="3.4" fill="#1e1c24"/>' +
          '<path fill="#46424e" d="M22 20.4A3.4 3.4 0 0 1 27.6 20.4L26.7 21.1A2.2 2.2 0 0 0 22.9 21.1Z"/>' +
          '<circle cx="24.8" cy="22.2" r="1.6" fill="#b7c0ca"/>' +
          '<circle cx="24.8" cy="22.2" r=".6" fill="#4f5660"/>',
      },
    ],
  },
  {
    // a hammer (issue #39, decision 0148): on the diagonal, a wooden haft with a leather grip and a
    // steel head across its top — a block with a flat striking face to the upper left and a cross peen
    // at the back (Fluent's hammer's notched top read as a hatchet)
    id: 'x/hammer',
    label: 'hammer',
    heads: ['hammer'],
    words: ['steel', 'iron', 'tool', 'blacksmith', 'smith', 'carpenter', 'claw', 'forge', 'metal'],
    zh: ['锤', '锤子', '铁锤', '榔头'],
    group: 'composite',
    box: [2, 2, 30, 30],
    color: [150, 160, 172],
    parts: [
      {
        svg:
          '<g transform="rotate(-45 16 16)">' +
          // the haft: lit edge up-left, shaded edge down-right; a dark leather grip at its foot
          '<rect x="-2.6" y="14.2" width="24" height="3.6" fill="#8a5a34"/>' +
          '<rect x="-2.6" y="14.2" width="24" height="1.2" fill="#b47c48"/>' +
          '<rect x="-2.6" y="16.8" width="24" height="1" fill="#5e3a20"/>' +
          '<rect x="-3.4" y="13.8" width="8.6" height="4.4" rx=".8" fill="#4a2c1c"/>' +
          '<path fill="#2e1a10" d="M-.4 13.8h.9v4.4h-.9zM2.4 13.8h.9v4.4h-.9z"/>' +
          // the head: a steel block across the haft's top, lit along its upper right side, shaded below
          '<rect x="19" y="8.6" width="8" height="11.4" fill="#9aa4b0"/>' +
          '<rect x="25" y="8.6" width="2" height="11.4" fill="#c9d0d8"/>' +
          '<rect x="19" y="8.6" width="1.6" height="11.4" fill="#6e7a88"/>' +
          // the back: a cross peen narrowing to a blunt edge
          '<path fill="#8d99a8" d="M19 19.6H27L25.6 24.4H20.4Z"/>' +
          '<path fill="#5f6a78" d="M19 19.6H20.6L21.4 24.4H20.4ZM19 19.6H27V20.6H19Z"/>' +
          '<rect x="20.4" y="23.4" width="5.2" height="1" fill="#c9d0d8"/>' +
          // the striking face: a collar a little wider than the block, its flat end lit
          '<rect x="18.4" y="5" width="9.2" height="4.2" rx=".4" fill="#aab4c0"/>' +
          '<rect x="18.4" y="5" width="9.2" height="1.3" rx=".3" fill="#eef2f6"/>' +
          '<rect x="18.4" y="6.3" width="1.4" height="2.9" fill="#77828f"/>' +
          '<rect x="18.4" y="8.6" width="9.2" height=".7" fill="#5f6a78"/>' +
          '</g>',
      },
    ],
  },
  {
    // a mallet (issue #39, decision 0148): the hammer's haft under a barrel of wood — two flat round
    // faces bound with iron hoops (game-icons' drawing is a ribbed toy mallet)
    id: 'x/mallet',
    label: 'mallet',
    heads: ['mallet'],
    words: ['wooden', 'wood', 'tool', 'carpenter', 'croquet'],
    zh: ['木槌'],
    group: 'composite',
    box: [2, 2, 30, 30],
    color: [176, 122, 72],
    parts: [
      {
        svg:
          '<g transform="rotate(-45 16 16)">' +
          '<rect x="-2.6" y="14.2" width="24" height="3.6" fill="#8a5a34"/>' +
          '<rect x="-2.6" y="14.2" width="24" height="1.2" fill="#b47c48"/>' +
          '<rect x="-2.6" y="16.8" width="24" height="1" fill="#5e3a20"/>' +
          // the barrel head: pale wood lit along its upper side, its two faces flat
          '<rect x="17.6" y="5" width="11.2" height="20" rx="1.6" fill="#c08a52"/>' +
          '<rect x="26.2" y="5" width="2.6" height="20" rx="1.2" fill="#e0b27a"/>' +
          '<rect x="17.6" y="5" width="2" height="20" rx="1" fill="#8e5c30"/>' +
          '<rect x="18.4" y="5" width="9.6" height="1.4" fill="#e8c48e"/>' +
          // iron hoops near each face
          '<path fill="#4f5660" d="M17.6 7.6h11.2v1.4H17.6zM17.6 21h11.2v1.4H17.6z"/>' +
          '<path fill="#8d99a8" d="M26.2 7.6h2.6v1.4h-2.6zM26.2 21h2.6v1.4h-2.6z"/>' +
          '</g>',
      },
    ],
  },
  {
    // a heater shield (issue #39, decision 0148): a red field lit on its left half, a gold cross band,
    // a steel boss at the crossing and a steel rim lit along its upper left (Fluent's shield was two
    // flat tones in a rim, no boss or charge)
    id: 'x/shield',
    label: 'shield',
    heads: ['shield'],
    words: [
      'knight',
      'knightly',
      'heater',
      'steel',
      'iron',
      'wooden',
      'armor',
      'armour',
      'defense',
      'defence',
      'guard',
    ],
    zh: ['盾牌', '盾', '护盾'],
    group: 'composite',
    box: [4, 2.5, 28, 30],
    color: [200, 50, 58],
    parts: [
      {
        svg:
          // the rim: steel, lit along the top and the left side
          '<path fill="#8a95a3" d="M4.2 4.2Q16 1.6 27.8 4.2V14.6C27.8 21.4 23 26.4 16 29.8C9 26.4 4.2 21.4 4.2 14.6Z"/>' +
          '<path fill="#dfe5ec" d="M4.2 4.2Q16 1.6 27.8 4.2V5.6Q16 3 5.6 5.6V14.6C5.6 19.4 8 23.2 12 26.4L11 27C6.6 23.6 4.2 19.6 4.2 14.6Z"/>' +
          // the field: red, its right half a step darker
          '<path fill="#cf3640" d="M6.2 6.2Q16 4.2 25.8 6.2V14.6C25.8 20.4 21.8 24.8 16 27.6C10.2 24.8 6.2 20.4 6.2 14.6Z"/>' +
          '<path fill="#a4222e" d="M16 5.2Q21 5.3 25.8 6.2V14.6C25.8 20.4 21.8 24.8 16 27.6Z"/>' +
          '<path fill="#de4a50" d="M7.4 7.2Q11 6.3 14 6.1V8.2Q11 8.4 7.4 9.2Z"/>' +
          // a gold cross band over the field
          '<path fill="#e2b443" d="M14.4 5.3H17.6V27.2L16 27.9L14.4 27.2ZM6.2 12.2H25.8V15.4H6.2Z"/>' +
          // the boss: a steel dome at the crossing, lit upper left
          '<circle cx="16" cy="13.8" r="3.6" fill="#6e7a88"/>' +
          '<circle cx="15.6" cy="13.4" r="2.9" fill="#b7c0ca"/>' +
          '<circle cx="14.8" cy="12.6" r="1.2" fill="#f4f8fb"/>',
      },
    ],
  },
  {
    // a crown (issue #39, decision 0148): a gold band under five points tipped with balls, its gems set
    // inside the band and the middle point (Fluent's crown's side gems stood out of the band's outline)
    id: 'x/crown',
    label: 'crown',
    heads: ['crown'],
    words: ['gold', 'golden', 'king', 'queen', 'royal', 'jewelled', 'jeweled', 'regal', 'monarch'],
    zh: ['皇冠', '王冠'],
    group: 'composite',
    box: [2.2, 4.9, 29.8, 26.5],
    color: [232, 184, 58],
    parts: [
      {
        svg:
          // the points, lit on their left faces, shaded right
          '<path fill="#e8b83a" d="M4 22V11L10 17.2L16 8.4L22 17.2L28 11V22Z"/>' +
          '<path fill="#f6d77a" d="M4 11L10 17.2L10.8 16L5.4 10.4V19H4ZM16 8.4L11.6 14.8L12.6 15.4L16 10.4Z"/>' +
          '<path fill="#b8862c" d="M16 8.4L22 17.2L20.8 17.2L16 10.4ZM28 11V20H26.6V12.4Z"/>' +
          // balls on the tips
          '<circle cx="4" cy="9.2" r="1.8" fill="#e8b83a"/><circle cx="3.6" cy="8.7" r=".7" fill="#fff0b8"/>' +
          '<circle cx="16" cy="6.8" r="1.9" fill="#e8b83a"/><circle cx="15.6" cy="6.3" r=".7" fill="#fff0b8"/>' +
          '<circle cx="28" cy="9.2" r="1.8" fill="#e8b83a"/><circle cx="27.6" cy="8.7" r=".7" fill="#fff0b8"/>' +
          // the band, a ring seen a little from above (its foot curves down in the middle): a lit top
          // edge and a shaded foot
          '<path fill="#d9a236" d="M4 18.6H28V24.6Q16 27.4 4 24.6Z"/>' +
          '<rect x="4" y="18.6" width="24" height="1.2" fill="#f6d77a"/>' +
          '<path fill="#a8741e" d="M4 23.2Q16 26 28 23.2V24.6Q16 27.4 4 24.6Z"/>' +
          // gems well inside the band and the middle point
          '<circle cx="16" cy="21.9" r="2" fill="#c8283a"/><circle cx="15.4" cy="21.3" r=".7" fill="#ff9aa4"/>' +
          '<circle cx="9.4" cy="21.9" r="1.5" fill="#2f6ad0"/><circle cx="9" cy="21.5" r=".5" fill="#a8d0ff"/>' +
          '<circle cx="22.6" cy="21.9" r="1.5" fill="#2f6ad0"/><circle cx="22.2" cy="21.5" r=".5" fill="#a8d0ff"/>' +
          '<circle cx="16" cy="14.8" r="1.1" fill="#c8283a"/>',
      },
    ],
  },
  {
    // an apple (issue #39, decision 0148): a round red fruit dimpled at top and bottom, lit upper left
    // with a glint, a brown stem and one small leaf (Fluent's apple has no stem, a big flat leaf)
    id: 'x/apple',
    label: 'apple',
    heads: ['apple'],
    words: ['red', 'green', 'fruit', 'food', 'fresh', 'ripe', 'juicy'],
    zh: ['苹果', '红苹果'],
    group: 'composite',
    box: [4.4, 3, 27.6, 29],
    color: [214, 48, 58],
    parts: [
      {
        svg:
          // the stem, then the leaf beside it
          '<path fill="#5a3620" d="M15.2 10.4L15.6 5.6C15.7 4.4 16.4 3.4 17.6 3L18.2 4.2C17.4 4.6 17 5.4 17 6.2L16.8 10.4Z"/>' +
          '<path fill="#4f9a34" d="M17.6 6.6C18.6 4.6 21.4 3.8 23.6 4.6C22.8 6.6 20.2 7.6 17.6 6.6Z"/>' +
          '<path fill="#7cc452" d="M17.6 6.6C18.6 4.6 21.4 3.8 23.6 4.6C21.6 5 19.6 5.6 17.6 6.6Z"/>' +
          // the fruit, its right and lower side shaded, a lit patch and a glint upper left
          '<path fill="#d6303a" d="M16 10C12.6 7.6 4.6 7.8 4.6 17C4.6 24.2 9.4 29 13 29C14.4 29 15 28.4 16 28.4C17 28.4 17.6 29 19 29C22.6 29 27.4 24.2 27.4 17C27.4 7.8 19.4 7.6 16 10Z"/>' +
          '<path fill="#a81e2a" d="M27.4 17C27.4 24.2 22.6 29 19 29C17.6 29 17 28.4 16 28.4C15 28.4 14.4 29 13 29C10.6 29 7.6 26.8 6 23.4C9.4 26.2 14 26.6 18 25.6C22.6 24.4 26 20.6 26 14.2C26 12.2 25.6 10.8 25 9.8C26.6 11.4 27.4 13.8 27.4 17Z"/>' +
          '<path fill="#f06a70" d="M7.2 14.6C7.6 11.8 9.4 10.2 11.8 10.2C12.4 10.2 12.6 10.8 12 11.2C10.2 12 9.2 13.6 8.8 15.6C8.6 16.6 7.1 16.2 7.2 14.6Z"/>' +
          '<circle cx="9.6" cy="12.6" r=".8" fill="#ffe4e6"/>' +
          '<path fill="#8a1622" d="M14.4 10.4Q16 11.4 17.6 10.4Q16 9.2 14.4 10.4Z"/>',
      },
    ],
  },
  ...(
    [
      ['breakfast', ['breakfast', 'brunch'], ['早餐', '早饭'], 'f/pancakes'],
      ['lunch', ['lunch', 'luncheon'], ['午餐', '午饭'], 'f/sandwich'],
      ['dinner', ['dinner', 'supper', 'meal', 'feast'], ['晚餐', '晚饭', '饭菜', '一餐'], 'f/poultry-leg'],
    ] as const
  ).map(
    ([name, heads, zh, food]): CompositeDef => ({
      // a meal: its food on a plate between a fork and a knife
      id: `x/${name}`,
      label: name,
      heads: [...heads],
      words: ['meal', 'plate', 'food'],
      zh: [...zh],
      group: 'composite',
      box: [1, 5, 31, 27],
      color: [235, 150, 70],
      parts: [
        { id: 'f/fork-and-knife-with-plate' },
        { id: food, transform: 'translate(16 16) scale(0.5) translate(-16 -16)' },
      ],
    }),
  ),
];
