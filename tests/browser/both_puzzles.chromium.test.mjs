// both/puzzles.mjs (a puzzle solved on the board, a wrong turn taken back) in Chromium; its twin file runs the other engine, side by side.
import scenarios from './both/puzzles.mjs';

scenarios('chromium');
