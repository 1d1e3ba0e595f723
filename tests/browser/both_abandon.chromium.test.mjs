// both/abandon.mjs (a player who leaves a clocked game, a game nobody starts) in Chromium; its twin file runs the other engine, side by side.
import scenarios from './both/abandon.mjs';

scenarios('chromium');
