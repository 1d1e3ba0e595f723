// both/play.mjs (the game as people play it) in Chromium; its twin file runs the other engine, side by side.
import scenarios from './both/play.mjs';

scenarios('chromium');
