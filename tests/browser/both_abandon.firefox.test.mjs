// both/abandon.mjs (a player who leaves a clocked game, a game nobody starts) in Firefox ESR; its twin file runs the other engine, side by side.
import scenarios from './both/abandon.mjs';

scenarios('firefox');
