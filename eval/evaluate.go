package eval

// Evaluate returns the Value of the best five-card hand among 5, 6 or 7 cards.
func Evaluate(cards ...Card) Value {
	return EvalSet(NewCardSet(cards...))
}

// EvalSet returns the Value of the best five-card hand in a set of 5, 6 or 7 cards.
func EvalSet(s CardSet) Value {
	return ReferenceEvaluate(s.Cards()...)
}
