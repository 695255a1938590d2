//! The engine's primitives: the general operations rules call. They speak of areas,
//! teams, pieces, dice, the ball, the clock and the score, never of an edition's rules.
//! `docs/primitives.md` lists them; [`Prim::all`] is the single source of that list.

use crate::value::Ty;

macro_rules! prims {
    ($( $variant:ident = $name:literal ( $($arg:ident),* ) -> $ret:ident : $doc:literal ;)*) => {
        /// An engine primitive.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Prim {
            $( #[doc = $doc] $variant, )*
        }

        impl Prim {
            /// Every primitive, in documentation order.
            pub fn all() -> &'static [Prim] {
                &[$(Prim::$variant,)*]
            }
            /// The name rules call it by.
            pub fn name(self) -> &'static str {
                match self { $(Prim::$variant => $name,)* }
            }
            /// Parameter types.
            #[inline]
            pub fn params(self) -> &'static [Ty] {
                match self { $(Prim::$variant => &[$(Ty::$arg),*],)* }
            }
            /// Number of parameters (a table look-up, for the machine).
            #[inline(always)]
            pub fn arity(self) -> usize {
                match self {
                    $(Prim::$variant => {
                        const N: usize = <[&str]>::len(&[$(stringify!($arg)),*]);
                        N
                    })*
                }
            }
            /// Result type.
            #[inline(always)]
            pub fn ret(self) -> Ty {
                match self { $(Prim::$variant => Ty::$ret,)* }
            }
            /// What it does.
            pub fn doc(self) -> &'static str {
                match self { $(Prim::$variant => $doc,)* }
            }
            /// Whether it changes the match (or ends the turn or half): the primitives with
            /// no value. The others only read the state.
            #[inline(always)]
            pub fn has_effect(self) -> bool {
                self.ret() == Ty::None
            }
            /// The primitive with this name.
            pub fn by_name(name: &str) -> Option<Prim> {
                match name { $($name => Some(Prim::$variant),)* _ => None }
            }
        }
    };
}

prims! {
    // Teams.
    Other = "other"(Team) -> Team: "The other team.";
    IsHome = "is_home"(Team) -> Bool: "Whether the team is the home team (defends the south goal line).";
    // Pieces and counts.
    Count = "count"(Team, Areas) -> Int: "Pieces of the team in an area or set of areas, goalkeeper included (capped by `match.count_cap`).";
    CountField = "count_field"(Team, Areas) -> Int: "Field pieces (not the goalkeeper) of the team in an area or set of areas.";
    Occupied = "occupied"(Team) -> Areas: "Areas where the team has at least one piece.";
    Outnumbered = "outnumbered"(Team) -> Areas: "Areas where the other team has more pieces than the team, as `count` counts them.";
    FieldAreas = "field_areas"(Team) -> Areas: "Areas where the team has at least one field piece.";
    Unmoved = "unmoved"(Team) -> Areas: "Areas where the team has a field piece that has not moved since `reset_moved`.";
    KeeperArea = "keeper_area"(Team) -> Area: "The area of the team's goalkeeper.";
    KeeperMoved = "keeper_moved"(Team) -> Bool: "Whether the goalkeeper has moved since `reset_moved`.";
    OnBoard = "on_board"(Team) -> Int: "Pieces of the team on the board.";
    Unplaced = "unplaced"(Team) -> Int: "Field pieces of the team taken off by `clear_pieces` and not yet placed.";
    NthLowest = "nth_lowest"(Team, Int) -> Area: "The area of the team's n-th lowest piece (1 = lowest), goalkeeper included, ranked from its own goal line by the far edge of the area, then the near edge.";
    Closest = "closest"(Team, Area, Bool) -> Areas: "Areas holding the team's pieces with the fewest links to the area; the goalkeeper counts when the flag is true.";
    MovePiece = "move_piece"(Team, Area, Area) -> None: "Moves a field piece (an unmoved one when there is one) and marks it moved.";
    MoveKeeper = "move_keeper"(Team, Area) -> None: "Moves the goalkeeper and marks it moved.";
    ApplyMove = "apply_move"(Team, Move) -> None: "Makes a move chosen from a move set.";
    ResetMoved = "reset_moved"(Team) -> None: "Marks every piece of the team as not moved.";
    ClearPieces = "clear_pieces"(Team) -> None: "Takes every piece of the team off the board, ready to be placed again.";
    Place = "place"(Team, Area) -> None: "Places an unplaced field piece.";
    PlaceKeeper = "place_keeper"(Team, Area) -> None: "Places the goalkeeper.";
    RemovePiece = "remove_piece"(Team, Area) -> None: "Removes a field piece from the match for good.";
    TakeOff = "take_off"(Team, Area) -> None: "Takes a field piece of the team in the area off the board for a while: it counts as unplaced (`unplaced`) until `place`d again.";
    ReturnPiece = "return_piece"(Team, Area) -> None: "Puts a field piece taken off by `remove_piece` back on the board, in the area (an error when the team has none off).";
    Moves = "moves"(Team, Area, Areas) -> Moves: "Moves of an unmoved field piece of the team from the area to each of the areas.";
    KeeperMoves = "keeper_moves"(Team, Areas) -> Moves: "Moves of the team's goalkeeper (if not moved) to each of the areas.";
    NoMoves = "no_moves"() -> Moves: "The empty move set.";
    UnmovedMoves = "unmoved_moves"(Moves, Team) -> Moves: "The moves of a move set that pieces of the team not yet moved can still make.";
    MovesFrom = "moves_from"(Moves, Areas) -> Moves: "The moves of a move set that start in one of the areas (the goalkeeper's too): a move set worked out once, narrowed to the areas a piece may still leave.";
    MovesTo = "moves_to"(Moves, Areas) -> Moves: "The moves of a move set that end in one of the areas (the goalkeeper's too): a move set worked out once, narrowed to where a piece may still go.";
    // The ball.
    BallArea = "ball_area"() -> Area: "The area of the ball.";
    BallValue = "ball_value"() -> Int: "The ball value.";
    SetBall = "set_ball"(Area) -> None: "Moves the ball.";
    SetBallValue = "set_ball_value"(Int) -> None: "Sets the ball value (an error outside `match.ball_values`).";
    GiveBall = "give_ball"(Team) -> None: "Gives the ball to the team: it becomes the controlling team.";
    SetPhasing = "set_phasing"(Team) -> None: "Makes the team the phasing team.";
    // Board geometry.
    AllAreas = "all_areas"() -> Areas: "Every area of the board.";
    Adjacent = "adjacent"(Areas) -> Areas: "Areas sharing a border or a corner with any of the areas.";
    Forward = "forward"(Areas, Team) -> Areas: "Areas one straight link toward the goal line the team attacks.";
    Backward = "backward"(Areas, Team) -> Areas: "Areas one straight link toward the team's own goal line.";
    Slide = "slide"(Area, Team, Bool, Int, Areas) -> Areas: "The areas passed going straight from the area toward the goal line the team attacks (toward its own when the flag is false), at most the number of links: the way stops at the board's end or at an area of the last set, which is included.";
    Sideways = "sideways"(Areas) -> Areas: "Areas one sideways link away.";
    Diagonal = "diagonal"(Areas) -> Areas: "Areas touching at a corner point only.";
    Direction = "direction"(Area, Area, Team) -> Str: "\"forward\", \"backward\", \"sideways\", \"diagonal\" or \"none\": the link from the first area to the second, for the team.";
    Between = "between"(Area, Area) -> Int: "Areas between two areas: the shortest path in links less one, at least 0.";
    Distance = "distance"(Area, Area) -> Int: "Links on the shortest path between two areas.";
    Closer = "closer"(Area, Team) -> Areas: "Areas closer than the area to the goal line the team attacks (not at the same level).";
    Behind = "behind"(Areas, Team) -> Areas: "Areas farther from the goal line the team attacks than at least one area of the set (the set's areas are closer).";
    Reaching = "reaching"(Area, Team) -> Areas: "Areas beginning farther from the team's own goal line than the area begins: they reach beyond it toward the goal line the team attacks, at the same level or not.";
    SameLevel = "same_level"(Area) -> Areas: "Areas at least partly at the same level as the area.";
    EntirelyInHalf = "entirely_in_half"(Area, Team) -> Bool: "Whether the area lies entirely in the team's own half.";
    PartlyInHalf = "partly_in_half"(Area, Team) -> Bool: "Whether the area lies at least partly in the team's own half.";
    HalfAreas = "half_areas"(Team) -> Areas: "Areas at least partly in the team's own half.";
    GoalLineAreas = "goal_line_areas"() -> Areas: "Areas touching either goal line.";
    OwnGoalLine = "own_goal_line"(Team) -> Areas: "Areas touching the team's own goal line.";
    Mark = "mark"(Str, Team) -> Areas: "A named set of areas on the team's side of the board (`[board.marks]`).";
    Number = "number"(Str, Area, Team) -> Int: "A named per-area number (`[board.numbers]`) for the team attacking from its own half.";
    HasNumber = "has_number"(Str, Area, Team) -> Bool: "Whether the named per-area number is given for the area.";
    Zone = "zone"(Area, Team) -> Str: "The area's zone name for the team.";
    Only = "only"(Areas) -> Area: "The one area of a set of exactly one.";
    Size = "size"(Any) -> Int: "Number of areas in a set, moves in a move set, dice in a roll, items in a list.";
    // Integers and dice.
    Min = "min"(Int, Int) -> Int: "The smaller.";
    Max = "max"(Int, Int) -> Int: "The larger.";
    Abs = "abs"(Int) -> Int: "Absolute value.";
    Clamp = "clamp"(Int, Int, Int) -> Int: "The value held between a low and a high bound.";
    Sum = "sum"(Dice) -> Int: "Sum of the dice.";
    Highest = "highest"(Dice) -> Int: "Highest die.";
    Lowest = "lowest"(Dice) -> Int: "Lowest die.";
    Die = "die"(Dice, Int) -> Int: "The n-th die rolled (1-based).";
    IsDouble = "is_double"(Dice) -> Bool: "Whether all dice show the same number.";
    // Clock, score and flow.
    Minute = "minute"() -> Int: "The minute on the time track.";
    Added = "added"() -> Int: "The added (stoppage) minute, 0 before stoppage time.";
    SetClock = "set_clock"(Int, Int) -> None: "Moves the time marker to a minute and an added minute. Never backward, in the whole match: the minute runs on across the halves (when a half begins the engine sets the added minute to 0 and keeps the minute), so a half starts at or after the minute the one before ended; going back is a match error.";
    Half = "half"() -> Int: "The half being played (1-based).";
    Turn = "turn"() -> Int: "The turn number within the half (1-based).";
    Score = "score"(Team) -> Int: "Goals of the team.";
    Goal = "goal"(Team) -> None: "A goal for the team.";
    EndTurn = "end_turn"() -> None: "Ends the turn now: the remaining stages are not played.";
    EndHalf = "end_half"() -> None: "Ends the half now.";
}
