module github.com/pokerfloor/pokerfloor

go 1.26
