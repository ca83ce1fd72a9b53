// The maps shipped with parlour (parlour/games/conflict/maps.py, CON-15), copied for the browser:
// a match's view names its map, and the page draws the terrain from the map's text.
// tests/web/test_web_conflict.py checks that this copy equals the engine's.

export const MAPS = {
  "parlour-20": "conflict-map 1\nname parlour-20\nsize 20x20\nterrain\n....................\n....................\n......#.~~~~.#......\n........~~~~........\n....+~~~~~~~~~~+....\n....~~~~~~~~~~~~....\n..#.~~~~~~~~~~~~.#..\n....~~~~~~~~~~~~....\n..~~~~~~....~~~~~~..\n..~~~~~~.##.~~~~~~..\n..~~~~~~.##.~~~~~~..\n..~~~~~~....~~~~~~..\n....~~~~~~~~~~~~....\n..#.~~~~~~~~~~~~.#..\n....~~~~~~~~~~~~....\n....+~~~~~~~~~~+....\n........~~~~........\n......#.~~~~.#......\n....................\n....................\nend\nbase 1 e5\nbase 2 p5\nbase 3 e16\nbase 4 p16\nmine 1 c3\nmine 1 g7\nmine 2 r3\nmine 2 n7\nmine 3 c18\nmine 3 g14\nmine 4 r18\nmine 4 n14\n",
};
