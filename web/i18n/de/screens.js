// Deutsch: the start screen, the account, the analysis board, the puzzles, the players' pages.
export default {};
