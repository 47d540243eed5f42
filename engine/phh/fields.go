package phh

// fieldID names each field this package knows, in the order Marshal writes them: the required fields,
// then the optional ones in the order of the specification.
type fieldID uint8

const (
	fVariant fieldID = iota
	fAnteTrimmingStatus
	fAntes
	fBlindsOrStraddles
	fMinBet
	fStartingStacks
	fActions
	fAuthor
	fEvent
	fURL
	fVenue
	fAddress
	fCity
	fRegion
	fPostalCode
	fCountry
	fTime
	fTimeZone
	fTimeZoneAbbreviation
	fDay
	fMonth
	fYear
	fHand
	fLevel
	fSeats
	fSeatCount
	fTable
	fPlayers
	fFinishingStacks
	fWinnings
	fCurrency
	fCurrencySymbol
	fTimeLimit
	fTimeBanks
	numFields
)

var fieldNames = [numFields]string{
	fVariant:              "variant",
	fAnteTrimmingStatus:   "ante_trimming_status",
	fAntes:                "antes",
	fBlindsOrStraddles:    "blinds_or_straddles",
	fMinBet:               "min_bet",
	fStartingStacks:       "starting_stacks",
	fActions:              "actions",
	fAuthor:               "author",
	fEvent:                "event",
	fURL:                  "url",
	fVenue:                "venue",
	fAddress:              "address",
	fCity:                 "city",
	fRegion:               "region",
	fPostalCode:           "postal_code",
	fCountry:              "country",
	fTime:                 "time",
	fTimeZone:             "time_zone",
	fTimeZoneAbbreviation: "time_zone_abbreviation",
	fDay:                  "day",
	fMonth:                "month",
	fYear:                 "year",
	fHand:                 "hand",
	fLevel:                "level",
	fSeats:                "seats",
	fSeatCount:            "seat_count",
	fTable:                "table",
	fPlayers:              "players",
	fFinishingStacks:      "finishing_stacks",
	fWinnings:             "winnings",
	fCurrency:             "currency",
	fCurrencySymbol:       "currency_symbol",
	fTimeLimit:            "time_limit",
	fTimeBanks:            "time_banks",
}

func (f fieldID) String() string { return fieldNames[f] }

// lookupField returns the field a key names.
func lookupField(key string) (fieldID, bool) {
	switch key {
	case "variant":
		return fVariant, true
	case "ante_trimming_status":
		return fAnteTrimmingStatus, true
	case "antes":
		return fAntes, true
	case "blinds_or_straddles":
		return fBlindsOrStraddles, true
	case "min_bet":
		return fMinBet, true
	case "starting_stacks":
		return fStartingStacks, true
	case "actions":
		return fActions, true
	case "author":
		return fAuthor, true
	case "event":
		return fEvent, true
	case "url":
		return fURL, true
	case "venue":
		return fVenue, true
	case "address":
		return fAddress, true
	case "city":
		return fCity, true
	case "region":
		return fRegion, true
	case "postal_code":
		return fPostalCode, true
	case "country":
		return fCountry, true
	case "time":
		return fTime, true
	case "time_zone":
		return fTimeZone, true
	case "time_zone_abbreviation":
		return fTimeZoneAbbreviation, true
	case "day":
		return fDay, true
	case "month":
		return fMonth, true
	case "year":
		return fYear, true
	case "hand":
		return fHand, true
	case "level":
		return fLevel, true
	case "seats":
		return fSeats, true
	case "seat_count":
		return fSeatCount, true
	case "table":
		return fTable, true
	case "players":
		return fPlayers, true
	case "finishing_stacks":
		return fFinishingStacks, true
	case "winnings":
		return fWinnings, true
	case "currency":
		return fCurrency, true
	case "currency_symbol":
		return fCurrencySymbol, true
	case "time_limit":
		return fTimeLimit, true
	case "time_banks":
		return fTimeBanks, true
	}
	return 0, false
}

// notNT reports the fields of the specification that belong to other variants (stud's bring-in,
// fixed-limit bet sizes): a No-Limit Hold'em hand that has them is wrong.
func notNT(key string) bool {
	return key == "bring_in" || key == "small_bet" || key == "big_bet"
}

// stringField returns the Hand's string for a string-valued field, nil for the others.
func (h *Hand) stringField(f fieldID) *string {
	switch f {
	case fVariant:
		return &h.Variant
	case fAuthor:
		return &h.Author
	case fEvent:
		return &h.Event
	case fURL:
		return &h.URL
	case fVenue:
		return &h.Venue
	case fAddress:
		return &h.Address
	case fCity:
		return &h.City
	case fRegion:
		return &h.Region
	case fPostalCode:
		return &h.PostalCode
	case fCountry:
		return &h.Country
	case fTimeZone:
		return &h.TimeZone
	case fTimeZoneAbbreviation:
		return &h.TimeZoneAbbreviation
	case fCurrency:
		return &h.Currency
	case fCurrencySymbol:
		return &h.CurrencySymbol
	}
	return nil
}

// intField returns the Hand's int for an integer-valued field, with the smallest and largest values
// it may take; nil for the others.
func (h *Hand) intField(f fieldID) (p *int, min, max int) {
	const big = 1 << 31
	switch f {
	case fDay:
		return &h.Day, 1, 31
	case fMonth:
		return &h.Month, 1, 12
	case fYear:
		return &h.Year, 0, big
	case fLevel:
		return &h.Level, 0, big
	case fSeatCount:
		return &h.SeatCount, 0, big
	}
	return nil, 0, 0
}

// amountsField returns the Hand's chip array for an array-of-amounts field and whether zero is
// allowed in it; nil for the others.
func (h *Hand) amountsField(f fieldID) (p *[]int64, zeroOK bool) {
	switch f {
	case fAntes:
		return &h.Antes, true
	case fBlindsOrStraddles:
		return &h.BlindsOrStraddles, true
	case fStartingStacks:
		return &h.StartingStacks, false
	case fFinishingStacks:
		return &h.FinishingStacks, true
	case fWinnings:
		return &h.Winnings, true
	}
	return nil, false
}
